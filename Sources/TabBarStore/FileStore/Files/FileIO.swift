import Foundation

import Glibc

/// The durable file operations the store is built from: every one either succeeds or throws a `SystemError`.
struct FileIO: Sendable {
    var faults: FaultInjector?

    /// Opens `path`, retrying on EINTR; always close-on-exec.
    func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw SystemError.current("open", path) }
        }
    }

    /// Writes every byte of `bytes`, continuing after short writes and EINTR.
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("write", path)
            }
            offset += written
        }
    }

    /// Writes every byte of `data`.
    func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { try writeAll(fd, $0, path: path) }
    }

    /// fsyncs `fd`. A failure is never retried by the caller: the pages may already be lost.
    func sync(_ fd: Int32, path: String) throws {
        faults?.beforeSync?(path)
        if faults?.failSyncs == true {
            throw SystemError(operation: "fsync", path: path, code: EIO)
        }
        while Glibc.fsync(fd) != 0 {
            if errno != EINTR { throw SystemError.current("fsync", path) }
        }
    }

    /// fsyncs a directory, making renames and new entries in it durable.
    func syncDirectory(_ path: String) throws {
        let fd = try open(path, O_RDONLY | O_DIRECTORY)
        defer { Glibc.close(fd) }
        try sync(fd, path: path)
    }

    /// Renames `from` to `to` (replacing `to`), both in the same file system.
    func rename(_ from: String, _ to: String) throws {
        if Glibc.rename(from, to) != 0 {
            throw SystemError.current("rename", "\(from) -> \(to)")
        }
    }

    /// Truncates the open file to `length` bytes and fsyncs it.
    func truncate(_ fd: Int32, to length: Int, path: String) throws {
        while Glibc.ftruncate(fd, off_t(length)) != 0 {
            if errno != EINTR { throw SystemError.current("ftruncate", path) }
        }
        try sync(fd, path: path)
    }

    /// Creates `path` as a directory if it does not exist, fsyncing its parent when it was created.
    /// Returns whether it was created.
    @discardableResult
    func makeDirectory(_ path: String) throws -> Bool {
        if Glibc.mkdir(path, 0o755) == 0 {
            try syncDirectory((path as NSString).deletingLastPathComponent)
            return true
        }
        if errno == EEXIST {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return false
            }
            throw SystemError(operation: "mkdir", path: path, code: ENOTDIR)
        }
        throw SystemError.current("mkdir", path)
    }

    /// A fresh temporary name next to `path`, ending in `.tmp` so that open removes it after a crash.
    func temporaryPath(for path: String) -> String {
        "\(path).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
    }

    /// Creates `path` atomically and durably, replacing any file there: a temp file in the same directory opened
    /// with `flags`, which `body` writes, then fsync, rename, and fsync of the directory. `permissions`, when given,
    /// is the file's mode whatever the umask. Returns the new file's descriptor, still open; the caller closes it.
    func createAtomically(
        _ path: String, flags: Int32 = O_WRONLY, permissions: mode_t? = nil, write body: (Int32, String) throws -> Void
    ) throws -> Int32 {
        let temporary = temporaryPath(for: path)
        let fd = try open(temporary, flags | O_CREAT | O_EXCL, mode: permissions ?? 0o644)
        do {
            if let permissions, Glibc.fchmod(fd, permissions) != 0 {
                throw SystemError.current("fchmod", temporary)
            }
            try body(fd, temporary)
            try sync(fd, path: temporary)
            try rename(temporary, path)
        } catch {
            Glibc.close(fd)
            Glibc.unlink(temporary)
            throw error
        }
        do {
            try syncDirectory((path as NSString).deletingLastPathComponent)
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Writes `path` atomically and durably (see `createAtomically`).
    func writeAtomically(
        _ path: String, permissions: mode_t? = nil, write body: (Int32, String) throws -> Void
    ) throws {
        Glibc.close(try createAtomically(path, permissions: permissions, write: body))
    }

    /// Writes `data` to `path` atomically and durably.
    func writeAtomically(_ path: String, data: Data, permissions: mode_t? = nil) throws {
        try writeAtomically(path, permissions: permissions) { fd, temporary in
            try writeAll(fd, data, path: temporary)
        }
    }

    /// Reads a whole file.
    func read(_ path: String) throws -> Data {
        let fd = try open(path, O_RDONLY)
        defer { Glibc.close(fd) }
        return try readAll(fd, path: path)
    }

    /// Reads from `fd` until end of file.
    func readAll(_ fd: Int32, path: String) throws -> Data {
        var result = Data()
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 {
            result.reserveCapacity(Int(info.st_size))
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("read", path)
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether something exists at `path`.
    func exists(_ path: String) -> Bool {
        var info = stat()
        return Glibc.lstat(path, &info) == 0
    }

    /// Whether `path` is a directory (not following a final symbolic link).
    func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return Glibc.lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory, without `.` and `..`, sorted.
    func contents(of path: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw SystemError(operation: "list directory", path: path, code: EIO, detail: "\(error)")
        }
    }

    /// Removes a file; one that is already gone counts as removed. Not durable until the directory is fsynced.
    func removeFile(_ path: String) throws {
        if Glibc.unlink(path) != 0, errno != ENOENT {
            throw SystemError.current("unlink", path)
        }
    }

    /// Removes a file or a whole directory tree.
    func removeTree(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw SystemError(operation: "remove", path: path, code: EIO, detail: "\(error)")
        }
    }
}

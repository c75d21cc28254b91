import Foundation

import Glibc

/// Writes a small file atomically and durably: temp file, fsync, rename, fsync of the directory.
enum DurableFile {
    static func write(_ data: Data, to url: URL, permissions: mode_t) throws {
        let directory = url.deletingLastPathComponent().path
        let temp = url.path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw DurableFileError(path: temp, operation: "open") }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                offset += n
            }
            return offset
        }
        guard written == data.count, fchmod(fd, permissions) == 0, fsync(fd) == 0 else {
            close(fd)
            unlink(temp)
            throw DurableFileError(path: temp, operation: "write")
        }
        close(fd)
        guard rename(temp, url.path) == 0 else {
            unlink(temp)
            throw DurableFileError(path: url.path, operation: "rename")
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw DurableFileError(path: directory, operation: "open") }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw DurableFileError(path: directory, operation: "fsync") }
    }
}

/// A durable write failed.
struct DurableFileError: Error, CustomStringConvertible {
    var path: String
    var operation: String
    var code: Int32 = errno

    var description: String {
        "\(operation) \(path) failed: \(String(cString: strerror(code)))"
    }
}

import Foundation

/// Writes a whole file so that a crash or a kill at any moment leaves either the old file or the new one: the bytes
/// go to a temporary file in the same directory, which is flushed to the disk (fsync), renamed over the file, and
/// the directory is flushed so that the rename itself survives a power loss.
enum AtomicFile {
    /// Replaces the file at `url` with `data`, creating the directory when missing.
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        synchronizeDirectory(directory)
    }

    /// Removes the file at `url`, durably; a missing file is no error.
    static func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch CocoaError.fileNoSuchFile {
            return
        }
        synchronizeDirectory(url.deletingLastPathComponent())
    }

    /// The file's bytes, or nil when it cannot be read.
    static func read(_ url: URL) -> Data? {
        try? Data(contentsOf: url)
    }

    /// Flushes the directory's entries (a rename, a removal) to the disk. Best effort: a file system that cannot open
    /// or flush a directory still has the file written and flushed whole, only its name's durability is left to it.
    private static func synchronizeDirectory(_ directory: URL) {
        guard let handle = try? FileHandle(forReadingFrom: directory) else { return }
        try? handle.synchronize()
        try? handle.close()
    }
}

import Foundation

/// Where damaged bytes go when recovery or repair drops them: a file next to the damaged one named
/// `<name>.damaged-<offset>-<UTC time>` (`-2`, `-3`… when that name is taken), so an earlier side file is never
/// overwritten. Side files are written durably (file and directory fsynced) before the original is cut, are never
/// removed by the store, and are ignored when it opens, except that a moved-aside version file keeps its number used.
enum SideFile {
    /// The marker between the original name and the offset.
    static let marker = ".damaged-"

    /// Writes `bytes` (taken from `path` at byte `offset`) to a new side file next to `path`; returns its path.
    static func write(_ bytes: Data, from path: String, at offset: Int, io: FileIO, now: Date = Date()) throws -> String {
        let side = freePath(for: path, offset: offset, io: io, now: now)
        try io.writeAtomically(side, data: bytes)
        return side
    }

    /// Moves the whole file at `path` aside (a rename, then a directory fsync); returns the side file's path.
    static func moveAside(_ path: String, io: FileIO, now: Date = Date()) throws -> String {
        let side = freePath(for: path, offset: 0, io: io, now: now)
        try io.rename(path, side)
        try io.syncDirectory((path as NSString).deletingLastPathComponent)
        return side
    }

    /// Whether a file name is a side file's.
    static func isSideFile(_ name: String) -> Bool {
        name.contains(marker) && !name.hasSuffix(".tmp")
    }

    /// The name of the file a side file was taken from, or nil when `name` is not a side file's.
    static func originalName(of name: String) -> String? {
        guard isSideFile(name), let range = name.range(of: marker) else { return nil }
        return String(name[..<range.lowerBound])
    }

    private static func freePath(for path: String, offset: Int, io: FileIO, now: Date) -> String {
        let base = "\(path)\(marker)\(offset)-\(timestamp(now))"
        var candidate = base
        var attempt = 1
        while io.exists(candidate) {
            attempt += 1
            candidate = "\(base)-\(attempt)"
        }
        return candidate
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withTimeZone]
        return formatter.string(from: date)
    }
}

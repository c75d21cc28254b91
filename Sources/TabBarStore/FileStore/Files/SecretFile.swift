import Foundation

/// A small file only its owner may read or write (mode 0600) in the data directory beside the store's files, such as
/// the admin token.
public enum SecretFile {
    /// The file's bytes, or nil when it is missing or cannot be read.
    public static func read(_ url: URL) -> Data? {
        try? FileIO().read(url.path)
    }

    /// Replaces the file with `data` atomically and durably (temp file, fsync, rename, directory fsync), with mode
    /// 0600 whatever the umask.
    public static func write(_ data: Data, to url: URL) throws {
        try FileIO().writeAtomically(url.path, data: data, permissions: 0o600)
    }
}

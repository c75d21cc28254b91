import Foundation

/// The repository's own files, for tests that read a source, a fixture or a script: found from this file's place
/// (`Tests/TestSupport/`), so that a test file can move between folders without counting `..`s.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file or folder at `relativePath` from the root, e.g. `Tests/Fixtures`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}

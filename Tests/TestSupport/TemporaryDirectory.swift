import Foundation

/// A unique directory under the system temp directory, so tests running in parallel never share files.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    /// Creates `tabconfig-tests-<label>-<UUID>` under the system temp directory.
    public init(_ label: String = "tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tabconfig-tests-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ components: String...) -> String {
        components.reduce(url) { $0.appendingPathComponent($1) }.path
    }

    /// A subdirectory URL (not created).
    public func child(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

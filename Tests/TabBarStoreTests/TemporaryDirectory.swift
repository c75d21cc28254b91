import Foundation

/// A unique directory under the system temp directory, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = "store") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("TabBarStoreTests-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ components: String...) -> String {
        components.reduce(url) { $0.appendingPathComponent($1) }.path
    }

    /// A subdirectory URL (not created).
    func child(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

import Foundation

/// The directory `export` writes and `apply` reads: one `<client>.json` per client, holding its source document.
struct ConfigDirectory {
    /// One file of the directory.
    struct File {
        /// The client id the name gives (the name without `.json`), not yet checked.
        var client: String
        var url: URL
        /// How messages name it: the directory as given, then the file name.
        var name: String
    }

    /// The directory as given on the command line.
    var path: String

    /// Whether the directory exists (and is one).
    var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The file that holds `client`'s document.
    func file(for client: String) -> File {
        let name = "\(client).json"
        return File(
            client: client, url: URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(name),
            name: (path as NSString).appendingPathComponent(name))
    }

    /// Every regular `*.json` file directly in the directory (hidden ones aside), by name.
    func files() throws -> [File] {
        let entries = try FileManager.default.contentsOfDirectory(
            at: URL(fileURLWithPath: path, isDirectory: true), includingPropertiesForKeys: [.isRegularFileKey])
        return entries
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { file(for: $0.deletingPathExtension().lastPathComponent) }
            .sorted { $0.client < $1.client }
    }
}

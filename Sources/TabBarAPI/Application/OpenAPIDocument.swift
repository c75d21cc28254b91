import Foundation

/// The `openapi.yaml` shipped inside the module's resources (the repository root links to it).
enum OpenAPIDocument {
    /// Reads the document; fails when the resource bundle was not installed next to the executable.
    static func load() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ConfigurationError(description: "openapi.yaml is missing from the TabBarAPI resource bundle")
        }
        return try Data(contentsOf: url)
    }
}

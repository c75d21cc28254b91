import Foundation

extension TabBarConfig {
    /// Strict decode + full validation. Unknown fields anywhere are problems (pointer to the field). Wrong JSON types
    /// are problems (pointer to the value), not crashes. Every problem is collected, not just the first.
    public static func decode(json: Data) -> Result<TabBarConfig, ConfigDecodingError> {
        let root: JSONValue
        do {
            root = try JSONParser.parse(json)
        } catch {
            return .failure(.malformedJSON(error.description))
        }
        var reader = JSONReader()
        let config = reader.readConfig(root)
        var validator = ConfigValidator(config: config, tainted: reader.tainted)
        let problems = reader.problems + validator.run()
        return problems.isEmpty ? .success(config) : .failure(.invalid(problems))
    }

    /// Compact canonical JSON (JSONEncoder with .sortedKeys, .withoutEscapingSlashes).
    public func encoded() -> Data {
        CanonicalJSON.encode(self)
    }
}

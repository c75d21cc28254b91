import Foundation

extension TabBarConfig {
    /// Strict decode + full validation. Unknown fields anywhere are problems (pointer to the field). Wrong JSON types
    /// are problems (pointer to the value), not crashes. Every problem is collected, not just the first.
    public static func decode(json: Data) -> Result<TabBarConfig, ConfigDecodingError> {
        JSONReader.read(json: json, { $0.readConfig($1) }, validate: validate)
    }

    /// Decodes through the strict reader and every rule, as `decode(json:)` does; throws
    /// `ConfigDecodingError.invalid` with every problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(decoder, { $0.readConfig($1) }, validate: Self.validate)
    }

    private static func validate(_ config: TabBarConfig, tainted: [String]) -> [ValidationProblem] {
        var validator = ConfigValidator(config: config, tainted: tainted)
        return validator.run()
    }

    /// Compact canonical JSON (`CanonicalJSON`).
    public func encoded() -> Data {
        CanonicalJSON.encode(self)
    }
}

/// Why JSON is not a valid config document (or part of one, or a rollback request).
public enum ConfigDecodingError: Error, Sendable, Equatable {
    /// Not parseable JSON at all (HTTP 400); the message says where.
    case malformedJSON(String)
    /// Parseable JSON but not valid (HTTP 422): every problem, each with a pointer.
    case invalid([ValidationProblem])
}

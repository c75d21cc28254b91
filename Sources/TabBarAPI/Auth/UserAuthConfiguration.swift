import Foundation

/// How user bearer tokens are checked. Empty (no keys) = user auth not configured.
public struct UserAuthConfiguration: Sendable, Equatable {
    /// Shared secret for HS256 tokens, at least 32 bytes (`TABCONFIG_JWT_HS256_SECRET`).
    public var hs256Secret: String?
    /// JWKS file with the RS256 and/or ES256 public keys (`TABCONFIG_JWT_JWKS_FILE`).
    public var jwksFile: URL?
    /// When set, a token's `iss` must equal it (`TABCONFIG_JWT_ISSUER`).
    public var issuer: String?
    /// When set, a token's `aud` (string or array) must contain it (`TABCONFIG_JWT_AUDIENCE`).
    public var audience: String?
    /// Seconds of clock leeway for `exp`, `nbf` and `iat` (`TABCONFIG_JWT_LEEWAY`).
    public var leeway: Int = 30

    /// Whether any key is configured, so that user tokens can be verified at all.
    public var isEnabled: Bool { hs256Secret != nil || jwksFile != nil }

    public init() {}
}

extension UserAuthConfiguration {
    /// The defaults overlaid with the `TABCONFIG_JWT_*` variables found in `environment`; empty values count as unset.
    public init(environment: [String: String]) throws {
        self.init()
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        hs256Secret = value("TABCONFIG_JWT_HS256_SECRET")
        jwksFile = value("TABCONFIG_JWT_JWKS_FILE").map { URL(fileURLWithPath: $0) }
        issuer = value("TABCONFIG_JWT_ISSUER")
        audience = value("TABCONFIG_JWT_AUDIENCE")
        if let text = value("TABCONFIG_JWT_LEEWAY") {
            guard let seconds = Int(text), seconds >= 0 else {
                throw ConfigurationError(
                    description: "TABCONFIG_JWT_LEEWAY must be a non-negative integer, got '\(text)'")
            }
            leeway = seconds
        }
    }
}

import Foundation
import Logging
import MicroHTTP
import TabBarAPI
import Testing

@Suite("configuration: logs and CORS")
struct ApplicationConfigurationTests {
    @Test("TABCONFIG_LOG_LEVEL, TABCONFIG_LOG_FORMAT and TABCONFIG_CORS_ORIGINS are read; bad values are refused")
    func environment() throws {
        let configuration = try ApplicationConfiguration(environment: [
            "TABCONFIG_LOG_LEVEL": "Warning", "TABCONFIG_LOG_FORMAT": "json",
            "TABCONFIG_CORS_ORIGINS": "https://console.example.com, *",
        ]).validated()
        #expect(configuration.logLevel == .warning)
        #expect(configuration.logFormat == .json)
        #expect(configuration.corsOrigins == ["https://console.example.com", "*"])
        let policy = configuration.crossOriginPolicy
        #expect(policy.origins == ["https://console.example.com"])
        #expect(policy.anyOriginForPublicRoutes)
        #expect(policy.publicRoutes == ["/v1/clients/{client}/tabs", "/v1/clients/{client}/tabs/events"])
        #expect(throws: ConfigurationError.self) {
            try ApplicationConfiguration(environment: ["TABCONFIG_LOG_LEVEL": "loud"])
        }
        #expect(throws: ConfigurationError.self) {
            try ApplicationConfiguration(environment: ["TABCONFIG_LOG_FORMAT": "xml"])
        }
    }

    @Test(
        "a CORS origin is * or SCHEME://HOST[:PORT] as a browser sends it",
        arguments: [
            ("*", true), ("https://console.example.com", true), ("http://127.0.0.1:5173", true),
            ("capacitor://localhost", true), ("http://[::1]:8080", true),
            ("https://console.example.com/", false), ("https://Console.example.com", false),
            ("console.example.com", false),
            ("https://example.com/path", false), ("null", false), ("", false), ("https://a.example:123456", false),
        ])
    func origins(origin: String, valid: Bool) {
        var configuration = ApplicationConfiguration()
        configuration.corsOrigins = [origin]
        #expect(((try? configuration.validated()) != nil) == valid, "\(origin)")
    }
}

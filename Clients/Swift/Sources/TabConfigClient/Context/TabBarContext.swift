/// What the app tells the service about itself, so that targeting (tabs for some app versions, rollouts,
/// experiments) resolves the tab bar this build can open. Sent as query parameters; every member is optional.
public struct TabBarContext: Sendable, Hashable, Codable {
    /// The platform as the config's conditions compare it (`ios`, `ipados`, `android`, …).
    public var platform: String?
    /// The app's version (`5.2.0`, `5.2.0-beta.1`).
    public var appVersion: String?
    /// The operating system's version (`17.4.1`).
    public var osVersion: String?
    /// A BCP 47 tag for the titles (`fr-CA`); the service falls back to the language, then the default locale.
    public var locale: String?
    /// ISO 3166-1 alpha-2 country code.
    public var country: String?
    /// An opaque id of the device, for rollouts and experiments over anonymous users.
    public var deviceId: String?
    /// Custom string attributes, `attr.NAME=value` (NAME: a letter, then letters, digits or `_`, at most 32).
    public var attributes: [String: String]

    /// A context; every member is optional.
    public init(
        platform: String? = nil, appVersion: String? = nil, osVersion: String? = nil, locale: String? = nil,
        country: String? = nil, deviceId: String? = nil, attributes: [String: String] = [:]
    ) {
        self.platform = platform
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.locale = locale
        self.country = country
        self.deviceId = deviceId
        self.attributes = attributes
    }

    /// The query parameters, in a stable order (so that equal contexts make equal URLs).
    public var queryParameters: [(name: String, value: String)] {
        let named: [(String, String?)] = [
            ("platform", platform), ("appVersion", appVersion), ("osVersion", osVersion), ("locale", locale),
            ("country", country), ("deviceId", deviceId),
        ]
        return named.compactMap { name, value in value.map { (name, $0) } }
            + attributes.sorted { $0.key < $1.key }.map { ("attr.\($0.key)", $0.value) }
    }
}

import Foundation

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

    /// What this app is, as the service's targeting and build manifests compare it: the platform it runs on, the
    /// bundle's `CFBundleShortVersionString` and the operating system's version. A member that cannot be known (a
    /// bundle without a version) is nil.
    public static func app(bundle: Bundle = .main) -> TabBarContext {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        return TabBarContext(
            platform: currentPlatform,
            appVersion: bundle.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String,
            osVersion: "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)")
    }

    /// This context with the members it leaves out taken from `defaults`: explicit values win.
    public func filling(from defaults: TabBarContext) -> TabBarContext {
        var filled = self
        filled.platform = platform ?? defaults.platform
        filled.appVersion = appVersion ?? defaults.appVersion
        filled.osVersion = osVersion ?? defaults.osVersion
        filled.locale = locale ?? defaults.locale
        filled.country = country ?? defaults.country
        filled.deviceId = deviceId ?? defaults.deviceId
        filled.attributes = defaults.attributes.merging(attributes) { _, explicit in explicit }
        return filled
    }

    /// The platform this code was built for, as the service's conditions name it.
    static var currentPlatform: String {
        #if os(iOS)
        "ios"
        #elseif os(visionOS)
        "visionos"
        #elseif os(tvOS)
        "tvos"
        #elseif os(watchOS)
        "watchos"
        #elseif os(macOS)
        "macos"
        #elseif os(Android)
        "android"
        #elseif os(Windows)
        "windows"
        #else
        "linux"
        #endif
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

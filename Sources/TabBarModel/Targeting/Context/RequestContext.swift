/// Who is asking for a tab bar (docs/design/model.md, "Targeting"): what the app says of itself in query
/// parameters, and what the service adds (the resolved locale, its language, the user of a user tab bar).
/// Conditions see these as top-level attributes by the same names, the custom ones in an object `attr`.
public struct RequestContext: Sendable, Equatable {
    /// `ios`, `ipados`, `android`…, as sent.
    public var platform: String?
    /// The app's version, e.g. `5.2.0`.
    public var appVersion: String?
    /// The operating system's version, e.g. `17.4.1`.
    public var osVersion: String?
    /// ISO 3166-1 alpha-2, upper case.
    public var country: String?
    /// An opaque id of the device, for rollouts without a user.
    public var deviceId: String?
    /// `attr.NAME=value` parameters, by NAME.
    public var custom: [String: String]
    /// The locale the tab bar is resolved in.
    public var locale: String?
    /// The language subtag of `locale`.
    public var language: String? { locale.map(LocaleTag.language(of:)) }
    /// The user of a user tab bar.
    public var userId: String?

    /// Creates a context.
    public init(
        platform: String? = nil, appVersion: String? = nil, osVersion: String? = nil, country: String? = nil,
        deviceId: String? = nil, custom: [String: String] = [:], locale: String? = nil, userId: String? = nil
    ) {
        self.platform = platform
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.country = country
        self.deviceId = deviceId
        self.custom = custom
        self.userId = userId
        self.locale = locale
    }

    /// Sets `locale` (and with it `language`).
    public mutating func setLocale(_ locale: String?) {
        self.locale = locale
    }

    /// The value of a hash attribute (`userId`, `deviceId`, `attr.NAME`); nil when the request has none.
    func hashValue(of attribute: String) -> String? {
        guard ContextAttribute.isHashable(attribute), let field = ContextField(path: attribute) else { return nil }
        return hashValue(of: field)
    }

    /// The value of a hash attribute's field; nil when the request has none or an empty one.
    func hashValue(of field: ContextField) -> String? {
        guard let value = value(of: field), !value.isEmpty else { return nil }
        return value
    }

    /// The value of a field; nil when the request has none.
    func value(of field: ContextField) -> String? {
        switch field {
        case .platform: platform
        case .appVersion: appVersion
        case .osVersion: osVersion
        case .country: country
        case .deviceId: deviceId
        case .locale: locale
        case .language: language
        case .userId: userId
        case .custom(let name): custom.isEmpty ? nil : custom[name]
        }
    }

    /// The attributes conditions are evaluated against: one member per value present, `attr` when any custom one is.
    var attributes: JSONValue {
        var members: [JSONMember] = []
        members.reserveCapacity(9)
        func add(_ name: String, _ value: String?) {
            if let value { members.append(JSONMember(key: name, value: .string(value))) }
        }
        add("platform", platform)
        add("appVersion", appVersion)
        add("osVersion", osVersion)
        add("country", country)
        add("deviceId", deviceId)
        add("locale", locale)
        add("language", language)
        add("userId", userId)
        if !custom.isEmpty {
            let attributes = custom.keys.sorted().map { JSONMember(key: $0, value: .string(custom[$0] ?? "")) }
            members.append(JSONMember(key: ContextAttribute.customObject, value: .object(attributes)))
        }
        return .object(members)
    }
}

extension RequestContext: Encodable {
    /// The attributes conditions see, as JSON: one member per value present, the custom ones under `attr`.
    public func encode(to encoder: any Encoder) throws {
        try attributes.encode(to: encoder)
    }
}

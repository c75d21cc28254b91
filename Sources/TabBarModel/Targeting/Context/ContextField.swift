/// The context attribute a condition path or a hash attribute names, resolved once when a plan is compiled so that
/// evaluation reads the request's context directly instead of looking the name up in JSON attributes
/// (docs/design/model.md, "Targeting").
enum ContextField: Hashable, Sendable {
    case platform, appVersion, osVersion, country, deviceId, locale, language, userId
    /// `attr.NAME`, by NAME.
    case custom(String)

    /// The field `path` names: a top-level attribute or `attr.NAME`; nil for any other path (`attr` itself, or one
    /// a valid config cannot hold), which conditions then read from the JSON attributes.
    init?(path: String) {
        switch path {
        case "platform": self = .platform
        case "appVersion": self = .appVersion
        case "osVersion": self = .osVersion
        case "country": self = .country
        case "deviceId": self = .deviceId
        case "locale": self = .locale
        case "language": self = .language
        case "userId": self = .userId
        default:
            guard path.hasPrefix("attr."), ContextAttribute.isValidCustomName(path.dropFirst(5)) else { return nil }
            self = .custom(String(path.dropFirst(5)))
        }
    }
}

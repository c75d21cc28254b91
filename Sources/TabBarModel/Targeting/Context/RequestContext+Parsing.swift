extension RequestContext {
    /// The most `attr.NAME` parameters a request may send.
    public static let maximumCustomAttributes = 16
    /// The longest custom attribute value, in characters.
    public static let maximumCustomValueLength = 256
    /// The longest `appVersion` or `osVersion`, in bytes.
    public static let maximumVersionLength = 64
    /// The query parameters that are part of a context besides `attr.NAME`.
    public static let parameterNames = ["platform", "appVersion", "osVersion", "country", "deviceId"]

    /// The context a request's query states: `platform`, `appVersion`, `osVersion`, `country`, `deviceId` and
    /// `attr.NAME`; other parameters are not part of it. `trustedCountry`, the value of the header an operator
    /// trusts for the country, wins over the query's `country` when it is a country code. A parameter given twice,
    /// too long or malformed is a problem naming it. ``RequestContextParser`` reads the parameters one at a time.
    public static func parse(
        query items: [(name: String, value: String)], trustedCountry: String? = nil
    ) -> Result<RequestContext, ContextProblem> {
        var parser = RequestContextParser()
        for (name, value) in items {
            if let problem = parser.read(name: name, value: value) {
                return .failure(problem)
            }
        }
        return .success(parser.finish(trustedCountry: trustedCountry))
    }

    /// A query parameter that is part of a context besides `attr.NAME`, told by its name's length before comparing
    /// it with one name: parsing runs on every tab-bar GET.
    enum Parameter: UInt8 {
        case platform, appVersion, osVersion, country, deviceId

        init?(_ name: String) {
            switch name.utf8.count {
            case 7 where name == "country": self = .country
            case 8 where name == "platform": self = .platform
            case 8 where name == "deviceId": self = .deviceId
            case 9 where name == "osVersion": self = .osVersion
            case 10 where name == "appVersion": self = .appVersion
            default: return nil
            }
        }
    }

    /// What is wrong with a custom attribute `attr.NAME=value` next to the ones already read, nil when nothing is.
    static func customProblem(attribute: String, value: String, among custom: [String: String]) -> String? {
        guard custom[attribute] == nil else { return "'attr.\(attribute)' is given more than once" }
        guard ContextAttribute.isValidCustomName(attribute) else {
            return "a custom attribute is attr.NAME, NAME matching \(ContextAttribute.customNamePattern)"
        }
        guard custom.count < maximumCustomAttributes else {
            return "at most \(maximumCustomAttributes) custom attributes are allowed"
        }
        guard value.count <= maximumCustomValueLength, isText(value) else {
            return "a custom attribute is at most \(maximumCustomValueLength) characters of UTF-8 text"
        }
        return nil
    }

    /// What is wrong with the value of a context parameter other than a custom one, nil when nothing is.
    static func problem(_ parameter: Parameter, value: String) -> String? {
        switch parameter {
        case .platform:
            let valid =
                (1...32).contains(value.utf8.count)
                && value.utf8.allSatisfy { byte in
                    isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                        || byte == UInt8(ascii: "-")
                }
            return valid ? nil : "a platform is 1…32 letters, digits, '.', '_' or '-' (e.g. ios, android)"
        case .appVersion, .osVersion:
            return value.utf8.count <= maximumVersionLength && VersionFormat.isWellFormed(value)
                ? nil : "'\(value.prefix(64))' is not a version (e.g. 5.2.0, 17.4.1, 5.2.0-beta.1)"
        case .country:
            return isCountryCode(value) ? nil : "a country is an ISO 3166-1 alpha-2 code (e.g. FR)"
        case .deviceId:
            return Identifiers.isValidUser(value) ? nil : "a device id matches \(Identifiers.userPattern)"
        }
    }

    /// Two ASCII letters.
    static func isCountryCode(_ value: String) -> Bool {
        value.utf8.count == 2 && value.utf8.allSatisfy { isAlphanumeric($0) && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Text without control characters or the replacement character that stands for bytes that were not UTF-8.
    static func isText(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

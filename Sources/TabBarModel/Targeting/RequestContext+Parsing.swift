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
    /// too long or malformed is a problem naming it.
    public static func parse(
        query items: [(name: String, value: String)], trustedCountry: String? = nil
    ) -> Result<RequestContext, ContextProblem> {
        var context = RequestContext()
        var seen: UInt8 = 0
        for (name, value) in items {
            let isCustom = name.hasPrefix("attr.")
            let attribute = isCustom ? String(name.dropFirst(5)) : ""
            let bit: UInt8
            if isCustom {
                bit = 0
            } else if let index = parameterNames.firstIndex(of: name) {
                bit = 1 << index
            } else {
                continue
            }
            guard seen & bit == 0, !isCustom || context.custom[attribute] == nil else {
                return .failure(ContextProblem(parameter: name, message: "'\(name)' is given more than once"))
            }
            seen |= bit
            if isCustom {
                guard ContextAttribute.isValidCustomName(attribute) else {
                    return .failure(
                        ContextProblem(
                            parameter: name,
                            message: "a custom attribute is attr.NAME, NAME matching \(ContextAttribute.customNamePattern)"))
                }
                guard context.custom.count < maximumCustomAttributes else {
                    return .failure(
                        ContextProblem(
                            parameter: name, message: "at most \(maximumCustomAttributes) custom attributes are allowed"))
                }
                guard value.count <= maximumCustomValueLength, isText(value) else {
                    return .failure(
                        ContextProblem(
                            parameter: name,
                            message: "a custom attribute is at most \(maximumCustomValueLength) characters of UTF-8 text"))
                }
                context.custom[attribute] = value
                continue
            }
            if let problem = problem(name: name, value: value) {
                return .failure(ContextProblem(parameter: name, message: problem))
            }
            switch name {
            case "platform": context.platform = value
            case "appVersion": context.appVersion = value
            case "osVersion": context.osVersion = value
            case "country": context.country = value.uppercased()
            default: context.deviceId = value
            }
        }
        if let trustedCountry, isCountryCode(trustedCountry) {
            context.country = trustedCountry.uppercased()
        }
        return .success(context)
    }

    /// What is wrong with the value of a named context parameter, nil when nothing is.
    private static func problem(name: String, value: String) -> String? {
        switch name {
        case "platform":
            let valid =
                (1...32).contains(value.utf8.count)
                && value.utf8.allSatisfy { byte in
                    isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                        || byte == UInt8(ascii: "-")
                }
            return valid ? nil : "a platform is 1…32 letters, digits, '.', '_' or '-' (e.g. ios, android)"
        case "appVersion", "osVersion":
            return value.utf8.count <= maximumVersionLength && VersionFormat.isWellFormed(value)
                ? nil : "'\(value.prefix(64))' is not a version (e.g. 5.2.0, 17.4.1, 5.2.0-beta.1)"
        case "country":
            return isCountryCode(value) ? nil : "a country is an ISO 3166-1 alpha-2 code (e.g. FR)"
        default:
            return Identifiers.isValidUser(value) ? nil : "a device id matches \(Identifiers.userPattern)"
        }
    }

    /// Two ASCII letters.
    private static func isCountryCode(_ value: String) -> Bool {
        value.utf8.count == 2 && value.utf8.allSatisfy { isAlphanumeric($0) && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Text without control characters or the replacement character that stands for bytes that were not UTF-8.
    private static func isText(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

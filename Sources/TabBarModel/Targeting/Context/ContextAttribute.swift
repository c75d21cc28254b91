/// The attributes a condition can name: what a request's context holds (docs/design/model.md, "Targeting").
public enum ContextAttribute {
    /// The top-level attributes, by the names conditions use.
    public static let names: Set<String> = [
        "platform", "appVersion", "osVersion", "country", "deviceId", "locale", "language", "userId",
    ]
    /// The object holding the custom `attr.NAME` attributes.
    public static let customObject = "attr"
    /// The custom attribute name pattern, as documented.
    public static let customNamePattern = "^[A-Za-z][A-Za-z0-9_]{0,31}$"

    /// Whether `name` matches ``customNamePattern``.
    public static func isValidCustomName(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 32, first.isASCIILetter else { return false }
        return bytes.dropFirst().allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") }
    }

    /// Whether a rollout or an experiment may hash `name`: `userId`, `deviceId` or `attr.NAME`.
    public static func isHashable(_ name: String) -> Bool {
        if name == "userId" || name == "deviceId" { return true }
        guard name.hasPrefix("attr.") else { return false }
        return isValidCustomName(name.dropFirst(5))
    }

    /// Whether a condition may name `path` at the top of a condition: a context attribute, `attr` or `attr.NAME`.
    public static func isKnownPath(_ path: String) -> Bool {
        if names.contains(path) || path == customObject { return true }
        guard path.hasPrefix("attr.") else { return false }
        return isValidCustomName(path.dropFirst(5))
    }
}

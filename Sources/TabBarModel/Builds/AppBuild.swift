/// One build of an app, as build manifests name it (docs/design/model.md, "Build manifests"): a platform and an app
/// version in canonical form, so that `5.2`, `5.2.0`, `v5.2.0` and `5.2.0+77` are the same build.
public struct AppBuild: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The platform as targeting compares it (`ios`, `android`).
    public let platform: String
    /// The app version without a leading `v` or build metadata, its numbers without leading zeros and at least three
    /// of them (`5.2` → `5.2.0`), a prerelease kept (`5.2.0-beta.1`).
    public let appVersion: String

    /// The platforms a manifest may name.
    public static let platformPattern = "^[a-z][a-z0-9]{0,15}$"

    /// The build of `platform` and `appVersion`; nil when the platform does not match ``platformPattern`` or the
    /// version is not one targeting reads (``VersionFormat``).
    public init?(platform: String, appVersion: String) {
        guard Self.isValidPlatform(platform), let version = Self.canonicalVersion(appVersion) else { return nil }
        self.platform = platform
        self.appVersion = version
    }

    /// Whether `platform` matches ``platformPattern``.
    public static func isValidPlatform(_ platform: String) -> Bool {
        let bytes = Array(platform.utf8)
        guard (1...16).contains(bytes.count), bytes[0].isASCIILowercase else { return false }
        return bytes.allSatisfy { $0.isASCIILowercase || $0.isASCIIDigit }
    }

    /// `version` in canonical form, or nil when it is not well-formed.
    public static func canonicalVersion(_ version: String) -> String? {
        // What apps send: already canonical (`5.2.0`), recognized in one pass without building a string. Every
        // tab-bar request of a client with manifests comes through here.
        if isCanonical(version.utf8) { return version }
        guard version.utf8.count <= 64, VersionFormat.isWellFormed(version) else { return nil }
        var text = Substring(version)
        if text.hasPrefix("v") { text = text.dropFirst() }
        if let plus = text.firstIndex(of: "+") { text = text[..<plus] }
        var prerelease = ""
        if let dash = text.firstIndex(of: "-") {
            prerelease = String(text[dash...])
            text = text[..<dash]
        }
        var numbers = text.split(separator: ".").map { number in
            String(number.drop { $0 == "0" }).isEmpty ? "0" : String(number.drop { $0 == "0" })
        }
        while numbers.count < 3 { numbers.append("0") }
        while numbers.count > 3, numbers.last == "0" { numbers.removeLast() }
        return numbers.joined(separator: ".") + prerelease
    }

    /// Whether `bytes` are three dot-separated numbers without leading zeros (`5.2.0`, `10.0.12`): a canonical
    /// version with no prerelease.
    private static func isCanonical(_ bytes: String.UTF8View) -> Bool {
        var numbers = 1
        var digits = 0
        var leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, numbers < 3 else { return false }
                numbers += 1
                digits = 0
            } else if byte.isASCIIDigit {
                if digits == 1, leadingZero { return false }
                if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
                digits += 1
                guard digits <= 9 else { return false }
            } else {
                return false
            }
        }
        return numbers == 3 && digits > 0
    }

    public var description: String { "\(platform) \(appVersion)" }

    public static func < (lhs: AppBuild, rhs: AppBuild) -> Bool {
        (lhs.platform, lhs.appVersion) < (rhs.platform, rhs.appVersion)
    }
}

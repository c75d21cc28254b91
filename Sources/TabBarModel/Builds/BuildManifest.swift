import Foundation

/// What one app build contains, declared by its CI (docs/design/model.md, "Build manifests"): the view controller
/// classes, nibs, storyboards and URL schemes it can open. The service never sends the build a tab whose destination
/// it lacks.
public struct BuildManifest: Sendable, Hashable {
    /// The build's own number (`1234`), for people reading the list.
    public var buildNumber: String?
    /// Class names (`HomeViewController`, `Shop.ShopViewController`).
    public var viewControllers: Set<String>
    /// Nib names.
    public var nibs: Set<String>
    /// Storyboard names.
    public var storyboards: Set<String>
    /// URL schemes it opens besides `http` and `https` (lowercased).
    public var urlSchemes: Set<String>

    /// The most names a manifest may hold, all lists together.
    public static let maximumNames = 10_000
    /// The pattern of a class name.
    public static let classNamePattern = "^[A-Za-z_][A-Za-z0-9_.]{0,255}$"

    /// A manifest.
    public init(
        buildNumber: String? = nil, viewControllers: Set<String> = [], nibs: Set<String> = [],
        storyboards: Set<String> = [], urlSchemes: Set<String> = []
    ) {
        self.buildNumber = buildNumber
        self.viewControllers = viewControllers
        self.nibs = nibs
        self.storyboards = storyboards
        self.urlSchemes = Set(urlSchemes.map { $0.lowercased() })
    }

    /// How many names it holds.
    public var nameCount: Int {
        viewControllers.count + nibs.count + storyboards.count + urlSchemes.count
    }

    /// Why the build cannot open `destination` (`has no viewController ShopViewController`), with the pointer below
    /// the destination's that names the missing thing (`/name`); nil when it can open it.
    public func missing(_ destination: Destination) -> (reason: String, pointer: String)? {
        switch destination.type {
        case .viewController:
            let name = destination.name ?? ""
            guard viewControllers.contains(name) else { return ("has no viewController \(name)", "/name") }
            if let nib = destination.nib, !nibs.contains(nib) { return ("has no nib \(nib)", "/nib") }
            return nil
        case .storyboard:
            let name = destination.name ?? ""
            return storyboards.contains(name) ? nil : ("has no storyboard \(name)", "/name")
        case .url:
            let scheme = Self.scheme(of: destination.url ?? "")
            if scheme == "http" || scheme == "https" || urlSchemes.contains(scheme) { return nil }
            return ("opens no \(scheme): URLs", "/url")
        }
    }

    /// The lowercased scheme of `url` (what comes before its first `:`).
    static func scheme(of url: String) -> String {
        String(url.prefix { $0 != ":" }).lowercased()
    }
}

extension BuildManifest: Encodable {
    private enum CodingKeys: String, CodingKey {
        case buildNumber, viewControllers, nibs, storyboards, urlSchemes
    }

    /// Every list sorted, so that equal manifests encode to equal bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(buildNumber, forKey: .buildNumber)
        try container.encode(viewControllers.sorted(), forKey: .viewControllers)
        try container.encode(nibs.sorted(), forKey: .nibs)
        try container.encode(storyboards.sorted(), forKey: .storyboards)
        try container.encode(urlSchemes.sorted(), forKey: .urlSchemes)
    }

    /// The manifest's canonical JSON: keys and names sorted, what a store keeps and compares.
    public func encoded() -> Data {
        CanonicalJSON.encode(self)
    }
}

extension BuildManifest {
    /// The body of `PUT …/builds/{platform}/{appVersion}`: an object whose members are all optional,
    /// `buildNumber` (1…64 printable characters), `viewControllers` (class names, ``classNamePattern``), `nibs` and
    /// `storyboards` (1…256 printable characters without `/`) and `urlSchemes` (RFC 3986 schemes), at most
    /// ``maximumNames`` names in all. Every problem has a pointer; unknown members are problems. A name whose bytes
    /// are not UTF-8 is such a problem (it is read with U+FFFD, which no rule allows), not a syntax error.
    public static func decode(json: Data) -> Result<BuildManifest, TabOrderDecodingError> {
        JSONReader.readBody(json: json, replacingInvalidUTF8: true) { reader, root in read(root, reader: &reader) }
    }

    private static func read(_ root: JSONValue, reader: inout JSONReader) -> BuildManifest {
        var manifest = BuildManifest()
        let members: Set<String> = ["buildNumber", "viewControllers", "nibs", "storyboards", "urlSchemes"]
        guard let object = reader.object(root, at: "", allowedKeys: members) else { return manifest }
        if let number = reader.string(object, "buildNumber") {
            if (1...64).contains(number.count), isPrintable(number) {
                manifest.buildNumber = number
            } else {
                reader.report(object.pointer("buildNumber"), "must be 1…64 printable characters")
            }
        }
        manifest.viewControllers = names(object, "viewControllers", &reader, rule: "must match \(classNamePattern)") {
            isClassName($0)
        }
        manifest.nibs = names(object, "nibs", &reader, rule: "must be 1…256 printable characters without '/'") {
            isResourceName($0)
        }
        manifest.storyboards = names(
            object, "storyboards", &reader, rule: "must be 1…256 printable characters without '/'"
        ) { isResourceName($0) }
        let schemeRule = "must be a URL scheme (RFC 3986: a letter, then letters, digits, '+', '-' or '.')"
        let schemes = names(object, "urlSchemes", &reader, rule: schemeRule) { isScheme($0) }
        manifest.urlSchemes = Set(schemes.map { $0.lowercased() })
        let count = members.reduce(0) { count, key in
            if case .array(let elements)? = object[key] { return count + elements.count }
            return count
        }
        if count > maximumNames {
            reader.report("", "must hold at most \(maximumNames) names in all, holds \(count)")
        }
        return manifest
    }

    /// The strings of the array `key`, each checked by `isValid`.
    private static func names(
        _ object: JSONObject, _ key: String, _ reader: inout JSONReader, rule: String, isValid: (String) -> Bool
    ) -> Set<String> {
        guard let elements = reader.array(object, key) else { return [] }
        var names: Set<String> = []
        for (index, element) in elements.enumerated() {
            let pointer = JSONPointer.appending(index, to: object.pointer(key))
            guard let name = reader.string(element, at: pointer) else { continue }
            if isValid(name) {
                names.insert(name)
            } else {
                reader.report(pointer, "\(rule), found \"\(name.prefix(64))\"")
            }
        }
        return names
    }

    static func isClassName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...256).contains(bytes.count), bytes[0].isASCIILetter || bytes[0] == UInt8(ascii: "_") else {
            return false
        }
        return bytes.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }

    static func isResourceName(_ name: String) -> Bool {
        (1...256).contains(name.count) && isPrintable(name) && !name.contains("/")
    }

    static func isScheme(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), bytes[0].isASCIILetter else { return false }
        return bytes.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }

    /// Text without control characters or the replacement character that stands for bytes that were not UTF-8.
    static func isPrintable(_ text: String) -> Bool {
        RequestContext.isText(text)
    }
}

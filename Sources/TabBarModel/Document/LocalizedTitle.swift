/// A tab title: its default text (in the config's `defaultLocale`), translations, and an app localization key.
public struct LocalizedTitle: Codable, Sendable, Hashable {
    /// The app's own localization key, for apps that localize in the bundle.
    public var key: String?
    /// The title in the config's default locale (1…64 characters).
    public var `default`: String
    /// Translations keyed by BCP 47 tag.
    public var localized: [String: String]?

    /// Creates a title.
    public init(key: String? = nil, default defaultTitle: String, localized: [String: String]? = nil) {
        self.key = key
        self.default = defaultTitle
        self.localized = localized
    }

    /// The title for a locale: `localized[locale]` (case-insensitive), else `localized[language subtag]`,
    /// else `default`.
    public func text(for locale: String) -> String {
        guard let localized, !localized.isEmpty else {
            return self.default
        }
        for candidate in [locale, LocaleTag.language(of: locale)] {
            if let key = LocaleTag.match(candidate, in: localized.keys), let text = localized[key] {
                return text
            }
        }
        return self.default
    }
}

extension LocalizedTitle {
    /// Decodes through the strict reader and the rules of a title; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readTitle($1, at: "") }) { .title($0) }
    }
}

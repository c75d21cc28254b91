extension TabBarConfig {
    /// Every locale tag present: defaultLocale plus every key of any title.localized, anywhere in the hierarchy.
    public var availableLocales: Set<String> {
        var tags: Set<String> = [effectiveDefaultLocale]
        var pending = tabs
        while let tab = pending.popLast() {
            if let localized = tab.title.localized {
                tags.formUnion(localized.keys)
            }
            pending.append(contentsOf: tab.children ?? [])
        }
        return tags
    }

    /// The locale choice of docs/design/model.md, "Resolving a tab bar". `query` (the ?locale= value) wins when given: its exact tag (case-insensitive) if
    /// present, else its language subtag if present, else `defaultLocale`. Otherwise the best match of the
    /// `Accept-Language` header (q-values honoured, q=0 excluded, `*` ignored; per range in preference order the
    /// exact tag, then its language subtag), else `defaultLocale`.
    /// Returns the tag as spelled in the document and whether the header decided it.
    public func resolveLocale(query: String?, acceptLanguage: String?) -> (locale: String, fromHeader: Bool) {
        resolveLocale(query: query, acceptLanguage: acceptLanguage, available: LocaleIndex(availableLocales))
    }

    /// `resolveLocale(query:acceptLanguage:)` with `availableLocales` indexed beforehand (it walks every tab).
    public func resolveLocale(
        query: String?, acceptLanguage: String?, available: LocaleIndex
    ) -> (locale: String, fromHeader: Bool) {
        if let query {
            return (bestMatch(for: query, in: available) ?? effectiveDefaultLocale, false)
        }
        if let acceptLanguage {
            for range in AcceptLanguage(header: acceptLanguage).ranges {
                if let match = bestMatch(for: range, in: available) {
                    return (match, true)
                }
            }
        }
        return (effectiveDefaultLocale, false)
    }

    private func bestMatch(for tag: String, in available: LocaleIndex) -> String? {
        available.match(tag) ?? available.match(LocaleTag.language(of: tag))
    }
}

/// Whether `tag` is a well-formed BCP 47 language tag of the forms apps use: language[-script][-region][-variant…],
/// e.g. "en", "de-CH", "zh-Hant-TW", "es-419". Letters and digits only; the first subtag is 2–3 letters,
/// the others 1–8 characters.
public func isValidLocaleTag(_ tag: String) -> Bool {
    LocaleTag.isValid(tag)
}

/// Helpers for BCP 47 tags: well-formedness, language subtag, case-insensitive lookup.
enum LocaleTag {
    /// Longest tag accepted; real tags are far shorter.
    static let maximumLength = 64

    static func isValid(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count <= maximumLength else {
            return false
        }
        var subtagLength = 0
        var isFirst = true
        for byte in tag.utf8 {
            if byte == UInt8(ascii: "-") {
                guard isFirst ? (2...3).contains(subtagLength) : subtagLength >= 1 else { return false }
                isFirst = false
                subtagLength = 0
                continue
            }
            subtagLength += 1
            guard byte.isASCIILetter || (!isFirst && byte.isASCIIDigit), subtagLength <= 8 else { return false }
        }
        return isFirst ? (2...3).contains(subtagLength) : subtagLength >= 1
    }

    /// The language subtag: everything before the first "-".
    static func language(of tag: String) -> String {
        guard let dash = tag.utf8.firstIndex(of: UInt8(ascii: "-")) else { return tag }
        return String(tag[..<dash])
    }

    /// The first of `tags` (in sorted order, for determinism) equal to `tag` ignoring case.
    static func match(_ tag: String, in tags: some Sequence<String>) -> String? {
        let wanted = tag.lowercased()
        return tags.filter { $0.lowercased() == wanted }.min()
    }
}

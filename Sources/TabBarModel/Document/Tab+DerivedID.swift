extension Tab {
    /// Most characters of a tab id (`^[a-z0-9][a-z0-9._-]{0,63}$`).
    static let maximumIDLength = 64

    /// The id an imported tab gets from its view controller class name, e.g. "MyFavoritesViewController" →
    /// "my-favorites", "UIViewController" → "ui".
    ///
    /// A trailing "ViewController" (else "Controller") is stripped; the rest is split into CamelCase words
    /// ("URLListView" → "url", "list", "view"; digits stay with their word), lowercased and joined by "-", with any
    /// character outside A–Z, a–z, 0–9 separating words. Nothing left gives "tab". While the id is in `used`,
    /// "-2", "-3", … is appended. The result is cut to 64 characters (before the suffix) and always a valid id.
    public static func derivedID(fromControllerName name: String, avoiding used: Set<String> = []) -> String {
        var stem = Substring(name)
        if stem.hasSuffix("ViewController") {
            stem = stem.dropLast("ViewController".count)
        } else if stem.hasSuffix("Controller") {
            stem = stem.dropLast("Controller".count)
        }
        let words = camelCaseWords(stem)
        let base = words.isEmpty ? "tab" : words.joined(separator: "-")
        var candidate = truncated(base, to: maximumIDLength)
        var number = 2
        while used.contains(candidate) {
            let suffix = "-" + String(number)
            candidate = truncated(base, to: maximumIDLength - suffix.count) + suffix
            number += 1
        }
        return candidate
    }

    /// Lowercased ASCII words: a new word starts at an uppercase letter after a lowercase letter or digit, and at the
    /// last uppercase letter of an acronym followed by a lowercase letter; other characters only separate words.
    private static func camelCaseWords(_ text: Substring) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var words: [String] = []
        var current = ""
        for (index, scalar) in scalars.enumerated() {
            guard isUppercase(scalar) || isLowercase(scalar) || isDigit(scalar) else {
                if !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                continue
            }
            if isUppercase(scalar), index > 0, !current.isEmpty {
                let previous = scalars[index - 1]
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                let endsAcronym = isUppercase(previous) && next.map(isLowercase) == true
                if isLowercase(previous) || isDigit(previous) || endsAcronym {
                    words.append(current)
                    current = ""
                }
            }
            current += String(scalar).lowercased()
        }
        if !current.isEmpty {
            words.append(current)
        }
        return words
    }

    /// The first `limit` characters of an ASCII id, without trailing "-".
    private static func truncated(_ id: String, to limit: Int) -> String {
        var result = String(id.prefix(limit))
        while result.hasSuffix("-") {
            result.removeLast()
        }
        return result
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar)
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}

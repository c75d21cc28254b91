extension EntityTag {
    /// What the entity tags of `If-None-Match` and `If-Match` values name, read back from the tags this API makes:
    /// the highest config version and, for each user, the highest customization revision. A tag of another form
    /// names nothing.
    struct Claims {
        var version = 0
        var revisions: [String: UInt64] = [:]

        /// Adds what the tags listed in `header` name.
        mutating func add(_ header: String) {
            for tag in EntityTag.list(header) {
                var tag = Substring(tag)
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                guard tag.count > 3, tag.first == "\"", tag.last == "\"" else { continue }
                add(kind: tag.dropFirst().first!, tag.dropFirst(2).dropLast())
            }
        }

        /// `rest` is what follows the kind: `t`/`c` `VERSION…`, `u` `VERSION-LOCALE[OUTCOME]-REVISION:USER`,
        /// `r` `REVISION:USER`, `o` a `t` or `u` tag's kind and rest, after a `b` for a build (an OFREP bulk
        /// evaluation's).
        private mutating func add(kind: Character, _ rest: Substring) {
            let colon = rest.firstIndex(of: ":")
            let user = colon.map { rest[rest.index(after: $0)...] }
            switch kind {
            case "t", "c", "u":
                if let number = Int(rest.prefix { $0.isASCII && $0.isNumber }) { version = max(version, number) }
                guard kind == "u", let colon, let dash = rest[..<colon].lastIndex(of: "-") else { return }
                note(revision: rest[rest.index(after: dash)..<colon], user: user)
            case "r":
                guard let colon else { return }
                note(revision: rest[..<colon], user: user)
            case "o":
                let tabBar = rest.first == "b" ? rest.dropFirst() : rest
                guard let inner = tabBar.first, inner == "t" || inner == "u" else { return }
                add(kind: inner, tabBar.dropFirst())
            default:
                return
            }
        }

        private mutating func note(revision text: Substring, user: Substring?) {
            guard let revision = UInt64(text), let user, !user.isEmpty else { return }
            revisions[String(user), default: 0] = max(revisions[String(user), default: 0], revision)
        }
    }
}

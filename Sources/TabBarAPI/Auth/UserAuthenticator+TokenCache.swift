extension UserAuthenticator {
    /// Tokens that passed every check, so that a repeated token skips parsing and the signature check.
    ///
    /// Bounded by entry count and by the bytes of the tokens it keeps (``BoundedCache``); when full, it drops the
    /// expired entries first. Not thread-safe on its own: the authenticator keeps it in a `Mutex`.
    struct TokenCache {
        /// What a verified token proved, and until when.
        struct Entry {
            var subject: String
            /// The token's `exp`, seconds since 1970.
            var expiresAt: Double
        }

        private var entries: BoundedCache<String, Entry>

        init(capacity: Int, byteCapacity: Int) {
            entries = BoundedCache(capacity: capacity, byteCapacity: byteCapacity)
        }

        var count: Int { entries.count }

        /// The subject cached for `token`; an entry past its `exp` plus `leeway` is dropped and reported as `.expired`.
        mutating func lookup(_ token: String, now: Double, leeway: Double) -> Lookup {
            guard let entry = entries[token] else { return .miss }
            guard now <= entry.expiresAt + leeway else {
                entries.removeValue(forKey: token)
                return .expired
            }
            return .hit(entry.subject)
        }

        /// The subject of a cached token that has not expired, changing nothing.
        func subject(of token: String, now: Double, leeway: Double) -> String? {
            guard let entry = entries[token], now <= entry.expiresAt + leeway else { return nil }
            return entry.subject
        }

        /// Remembers a verified token; tokens too large to share the byte budget fairly are not kept. A full cache
        /// drops its expired entries before any other.
        mutating func insert(_ token: String, _ entry: Entry, now: Double, leeway: Double) {
            let size = token.utf8.count
            guard size <= entries.byteCapacity / 64, entries[token] == nil else { return }
            if entries.isFull(adding: size) {
                entries.removeAll { now > $0.expiresAt + leeway }
            }
            entries.insert(entry, for: token, size: size)
        }

        /// The outcome of a cache lookup.
        enum Lookup: Equatable {
            case miss
            case hit(String)
            case expired
        }
    }
}

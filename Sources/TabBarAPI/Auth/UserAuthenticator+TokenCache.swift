extension UserAuthenticator {
    /// Tokens that passed every check, so that a repeated token skips parsing and the signature check.
    ///
    /// Bounded by entry count and by the bytes of the tokens it keeps. When full, it drops the expired entries and
    /// then arbitrary ones until a tenth of the room is free, so that sweep runs at most once per tenth of the
    /// capacity inserted. Not thread-safe on its own: the authenticator keeps it in a `Mutex`.
    struct TokenCache {
        /// What a verified token proved, and until when.
        struct Entry {
            var subject: String
            /// The token's `exp`, seconds since 1970.
            var expiresAt: Double
        }

        let capacity: Int
        let byteCapacity: Int
        private var entries: [String: Entry] = [:]
        private var bytes = 0

        init(capacity: Int, byteCapacity: Int) {
            self.capacity = capacity
            self.byteCapacity = byteCapacity
        }

        var count: Int { entries.count }

        /// The subject cached for `token`; an entry past its `exp` plus `leeway` is dropped and reported as `.expired`.
        mutating func lookup(_ token: String, now: Double, leeway: Double) -> Lookup {
            guard let entry = entries[token] else { return .miss }
            guard now <= entry.expiresAt + leeway else {
                remove(token)
                return .expired
            }
            return .hit(entry.subject)
        }

        /// The subject of a cached token that has not expired, changing nothing.
        func subject(of token: String, now: Double, leeway: Double) -> String? {
            guard let entry = entries[token], now <= entry.expiresAt + leeway else { return nil }
            return entry.subject
        }

        /// Remembers a verified token; tokens too large to share the byte budget fairly are not kept.
        mutating func insert(_ token: String, _ entry: Entry, now: Double, leeway: Double) {
            let size = token.utf8.count
            guard capacity > 0, size <= byteCapacity / 64, entries[token] == nil else { return }
            if entries.count >= capacity || bytes + size > byteCapacity {
                makeRoom(now: now, leeway: leeway)
            }
            entries[token] = entry
            bytes += size
        }

        private mutating func remove(_ token: String) {
            if entries.removeValue(forKey: token) != nil {
                bytes -= token.utf8.count
            }
        }

        private mutating func makeRoom(now: Double, leeway: Double) {
            entries = entries.filter { now <= $0.value.expiresAt + leeway }
            bytes = entries.keys.reduce(0) { $0 + $1.utf8.count }
            let countTarget = capacity - max(1, capacity / 10)
            let byteTarget = byteCapacity - byteCapacity / 10
            while entries.count > countTarget || bytes > byteTarget, let token = entries.first?.key {
                remove(token)
            }
        }

        /// The outcome of a cache lookup.
        enum Lookup: Equatable {
            case miss
            case hit(String)
            case expired
        }
    }
}

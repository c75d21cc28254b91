import Foundation

/// The `Cache-Control` of each kind of answer.
struct CachePolicy: Sendable {
    /// `Cache-Control` of per-user and admin representations: stored only by the caller's own cache, revalidated at
    /// every use, so a user's next read after a write, or after a version event, is never an older copy.
    static let privateCacheControl = "private, no-cache"
    /// The default tab bar's `max-age` and `stale-while-revalidate` in seconds (0: none), which a coming
    /// `startsAt` / `endsAt` shortens.
    let maxAge: Int
    let staleWhileRevalidate: Int
    /// `Cache-Control` of the default tab bar: revalidated at every use unless the operator chose a `max-age`.
    let publicCacheControl: String

    init(maxAge: Int, staleWhileRevalidate: Int) {
        self.maxAge = maxAge
        self.staleWhileRevalidate = staleWhileRevalidate
        publicCacheControl = Self.sharedCacheControl(maxAge: maxAge, staleWhileRevalidate: staleWhileRevalidate)
    }

    /// `public, no-cache` for `maxAge` 0; else `public, max-age=N`, with `stale-while-revalidate=S` when `S` > 0.
    static func sharedCacheControl(maxAge: Int, staleWhileRevalidate: Int) -> String {
        guard maxAge > 0 else { return "public, no-cache" }
        guard staleWhileRevalidate > 0 else { return "public, max-age=\(maxAge)" }
        return "public, max-age=\(maxAge), stale-while-revalidate=\(staleWhileRevalidate)"
    }

    /// The default tab bar's `Cache-Control` when the next `startsAt` / `endsAt` is `boundary`: nil when the usual
    /// one ends before it (or has no lifetime), else one whose `max-age` and `stale-while-revalidate` end by then.
    func sharedCacheControl(until boundary: Date, now: Date) -> String? {
        guard maxAge > 0 else { return nil }
        let remaining = Int(boundary.timeIntervalSince(now).rounded(.down))
        guard remaining < maxAge + staleWhileRevalidate else { return nil }
        let cappedMaxAge = min(maxAge, remaining)
        guard cappedMaxAge > 0 else { return "public, no-cache" }
        return Self.sharedCacheControl(
            maxAge: cappedMaxAge, staleWhileRevalidate: min(staleWhileRevalidate, remaining - cappedMaxAge))
    }
}

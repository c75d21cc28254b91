import Foundation

/// A tab bar handed to the app, with where it came from.
public struct TabBarDelivery: Sendable, Hashable {
    /// The tab bar to show. While a save is pending, the user's edit is applied to it (order, hidden tabs and
    /// placement), so the app shows what the user left.
    public var tabBar: TabBar
    /// Where the tab bar came from.
    public var source: Source
    /// The ETag of the service's answer it is based on; nil for the bundled default.
    public var etag: String?
    /// Whether a save of the user's waits to be stored by the service (and is applied to ``tabBar``).
    public var hasPendingSave: Bool
    /// When the service sent or last confirmed the answer; nil for the bundled default.
    public var receivedAt: Date?

    /// A delivery.
    public init(tabBar: TabBar, source: Source, etag: String?, hasPendingSave: Bool, receivedAt: Date?) {
        self.tabBar = tabBar
        self.source = source
        self.etag = etag
        self.hasPendingSave = hasPendingSave
        self.receivedAt = receivedAt
    }

    /// Where a delivered tab bar came from.
    public enum Source: Sendable, Hashable {
        /// The service answered it, or confirmed it (304), in this process.
        case fresh
        /// Kept on disk from an earlier answer, not yet confirmed by the service in this process.
        case cached
        /// The app's bundled default: the service never answered this request.
        case bundled
    }
}

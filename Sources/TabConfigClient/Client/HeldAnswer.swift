import Foundation

/// The answer a client holds: the tab bar, its ETag, the request it answers and where it came from.
struct HeldAnswer: Sendable, Hashable {
    var tabBar: TabBar
    var etag: String?
    /// What request it answers (``TabBarClient/requestKey``).
    var request: String
    var source: TabBarDelivery.Source
    var receivedAt: Date?
}

import Foundation

/// The tab bar a client serves and where it came from: the service's last answer (kept on disk, served at the next
/// launch as cached until the service confirms it), else the bundled default. An answer is served only for the
/// request it answers (``TabBarClient/requestKey``): another user, app version or language reads as none.
struct AnswerCache: Sendable {
    /// The files it reads and writes; nil for nobody's (`.me` while the token names no one): nothing is read or
    /// kept.
    let storage: ClientStorage?
    /// The tab bar served before the service ever answered.
    let bundled: TabBar?
    /// The answer served.
    private(set) var held: HeldAnswer?
    /// Whether the disk was read.
    private(set) var loaded = false

    init(storage: ClientStorage?, bundled: TabBar?) {
        self.storage = storage
        self.bundled = bundled
    }

    /// Reads the disk once: the last good answer if it answers `request`, else the bundled default.
    mutating func load(request: String) {
        guard !loaded else { return }
        loaded = true
        if let cached = storage?.loadAnswer(), cached.request == request,
            let tabBar = try? JSONDecoder().decode(TabBar.self, from: cached.body)
        {
            held = HeldAnswer(
                tabBar: tabBar, etag: cached.etag, request: request, source: .cached, receivedAt: cached.receivedAt)
        } else if let bundled {
            held = HeldAnswer(tabBar: bundled, etag: nil, request: request, source: .bundled, receivedAt: nil)
        }
    }

    /// The ETag to revalidate with: the held answer's, when it answers `request`.
    func entityTag(for request: String) -> String? {
        guard let held, held.request == request else { return nil }
        return held.etag
    }

    /// The service answered `request` with `tabBar` (`body` as sent): it is served, fresh, and kept on disk. Throws
    /// when it could not be kept (it is served all the same).
    mutating func received(_ tabBar: TabBar, body: Data, etag: String?, request: String, at date: Date) throws {
        held = HeldAnswer(tabBar: tabBar, etag: etag, request: request, source: .fresh, receivedAt: date)
        try storage?.store(CachedAnswer(request: request, etag: etag, body: body, receivedAt: date))
    }

    /// The service confirmed the held answer to `request` (304): fresh from now on. False when no answer with an
    /// ETag answers it (the 304 is then not one the client asked for).
    mutating func confirmed(request: String, at date: Date) -> Bool {
        guard held?.request == request, held?.etag != nil else { return false }
        held?.source = .fresh
        held?.receivedAt = date
        return true
    }

    /// Shows the order the service stored for the user until its next answer replaces it.
    mutating func showStored(_ saved: SavedTabOrder) {
        guard var held, held.tabBar.customization != nil else { return }
        held.tabBar = held.tabBar.applying(TabOrderState(order: saved.order, hidden: saved.hidden))
        held.tabBar.customization?.revision = saved.revision
        held.etag = nil
        self.held = held
    }

    /// The delivery of the held answer, with `pending`'s edit applied to it.
    func delivery(pending: PendingSave?) -> TabBarDelivery? {
        guard let held else { return nil }
        var tabBar = held.tabBar
        if let pending {
            tabBar = tabBar.applying(pending.edit.applied(to: TabOrderState(held.tabBar)))
        }
        return TabBarDelivery(
            tabBar: tabBar, source: held.source, etag: held.etag, hasPendingSave: pending != nil,
            receivedAt: held.receivedAt)
    }
}

/// The answer a client holds: the tab bar, its ETag, the request it answers and where it came from.
struct HeldAnswer: Sendable, Hashable {
    var tabBar: TabBar
    var etag: String?
    /// What request it answers (``TabBarClient/requestKey``).
    var request: String
    var source: TabBarDelivery.Source
    var receivedAt: Date?
}

import Foundation
import Testing

@testable import TabConfigClient

/// A storage directory of its own, removed when the test ends.
final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-parts-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A configuration of client `app` and user `user` keeping its files here.
    func configuration(user: String = "ann") -> TabBarClient.Configuration {
        TabBarClient.Configuration(
            baseURL: URL(string: "https://tabs.example.com")!, client: "app", user: .id(user), storageDirectory: url)
    }

    /// The files of client `app` and user `user` here.
    func storage(user: String = "ann") -> ClientStorage {
        ClientStorage(configuration(user: user))
    }
}

private func tabBar(_ ids: [String], revision: Int? = nil) -> TabBar {
    TabBar(
        client: "app", version: 3, locale: "en", maxVisibleTabs: 5, initialTab: ids.first ?? "",
        tabs: ids.map {
            TabBar.Tab(
                id: $0, title: $0, destination: TabBar.Destination(type: .viewController, name: $0), placement: .bar)
        },
        customization: revision.map { TabBar.Customization(source: .user, revision: $0) })
}

@Suite("AnswerCache: the answer served and where it came from")
struct AnswerCacheTests {
    @Test("A first launch serves the bundled default; an answer received is fresh, and cached at the next launch")
    func bundledThenFreshThenCached() throws {
        let scratch = Scratch()
        var cache = AnswerCache(storage: scratch.storage(), bundled: tabBar(["home"]))
        cache.load(request: "GET /tabs")
        #expect(cache.delivery(pending: nil)?.source == .bundled)
        #expect(cache.entityTag(for: "GET /tabs") == nil)

        let served = tabBar(["home", "search"])
        try cache.received(
            served, body: try JSONEncoder().encode(served), etag: "\"v3\"", request: "GET /tabs", at: Date())
        #expect(cache.delivery(pending: nil)?.source == .fresh)

        var next = AnswerCache(storage: scratch.storage(), bundled: tabBar(["home"]))
        next.load(request: "GET /tabs")
        #expect(next.delivery(pending: nil)?.source == .cached)
        #expect(next.delivery(pending: nil)?.tabBar.tabs.map(\.id) == ["home", "search"])
        #expect(next.entityTag(for: "GET /tabs") == "\"v3\"")
        #expect(next.entityTag(for: "GET /tabs?appVersion=2") == nil)
        let confirmed = next.confirmed(request: "GET /tabs", at: Date())
        #expect(confirmed)
        #expect(next.delivery(pending: nil)?.source == .fresh)
    }

    @Test("An answer kept for another request is not served, and a 304 for it confirms nothing")
    func anotherRequestReadsAsNone() throws {
        let scratch = Scratch()
        var first = AnswerCache(storage: scratch.storage(), bundled: nil)
        first.load(request: "GET /tabs?appVersion=1")
        let served = tabBar(["home"])
        try first.received(
            served, body: try JSONEncoder().encode(served), etag: "\"v1\"", request: "GET /tabs?appVersion=1",
            at: Date())

        var other = AnswerCache(storage: scratch.storage(), bundled: nil)
        other.load(request: "GET /tabs?appVersion=2")
        #expect(other.delivery(pending: nil) == nil)
        let confirmedOther = other.confirmed(request: "GET /tabs?appVersion=2", at: Date())
        #expect(!confirmedOther)
    }

    @Test("A pending save is shown applied; a stored order is shown until the next answer, without an ETag")
    func pendingAndStoredShown() throws {
        let scratch = Scratch()
        var cache = AnswerCache(storage: scratch.storage(), bundled: nil)
        cache.load(request: "GET /tabs")
        let served = tabBar(["a", "b", "c"], revision: 4)
        try cache.received(
            served, body: try JSONEncoder().encode(served), etag: "\"u4\"", request: "GET /tabs", at: Date())
        let edit = TabOrderEdit(
            base: TabOrderState(order: ["a", "b", "c"]), edited: TabOrderState(order: ["c", "a", "b"]))
        let pending = PendingSave(owner: "app|ann", edit: edit, baseRevision: 4)
        let shown = try #require(cache.delivery(pending: pending))
        #expect(shown.hasPendingSave)
        #expect(shown.tabBar.tabs.map(\.id) == ["c", "a", "b"])

        cache.showStored(SavedTabOrder(order: ["b", "c", "a"], hidden: [], revision: 5))
        let stored = try #require(cache.delivery(pending: nil))
        #expect(stored.tabBar.tabs.map(\.id) == ["b", "c", "a"])
        #expect(stored.tabBar.customization?.revision == 5)
        #expect(stored.etag == nil)
    }
}

@Suite("SaveQueue: the pending save on disk")
struct SaveQueueTests {
    private let first = TabOrderEdit(base: TabOrderState(order: ["a", "b"]), edited: TabOrderState(order: ["b", "a"]))
    private let second = TabOrderEdit(
        base: TabOrderState(order: ["b", "a"]), edited: TabOrderState(order: ["b"], hidden: ["a"]))

    @Test("An edit is kept on disk before it is sent; a second one composes with it; an empty one queues nothing")
    func enqueueComposes() throws {
        let scratch = Scratch()
        var queue = SaveQueue(storage: scratch.storage())
        queue.load()
        let unchanged = TabOrderEdit(base: TabOrderState(order: ["a"]), edited: TabOrderState(order: ["a"]))
        let queuedEmpty = try queue.enqueue(unchanged, baseRevision: 0)
        #expect(!queuedEmpty)
        let queuedFirst = try queue.enqueue(first, baseRevision: 2)
        #expect(queuedFirst)
        let queuedSecond = try queue.enqueue(second, baseRevision: 9)
        #expect(queuedSecond)
        #expect(queue.pending?.edit == TabOrderEdit(base: first.base, edited: second.edited))
        #expect(queue.pending?.baseRevision == 2)

        var reread = SaveQueue(storage: scratch.storage())
        reread.load()
        #expect(reread.pending?.id == queue.pending?.id && reread.pending?.edit == queue.pending?.edit)
        var otherUser = SaveQueue(storage: scratch.storage(user: "bob"))
        otherUser.load()
        #expect(otherUser.pending == nil)
    }

    @Test("A stored save goes, unless a newer edit replaced it meanwhile; a rebase keeps the move on the newer order")
    func removeAndRebase() throws {
        let scratch = Scratch()
        var queue = SaveQueue(storage: scratch.storage())
        queue.load()
        let queuedFirst = try queue.enqueue(first, baseRevision: 2)
        #expect(queuedFirst)
        let sent = try #require(queue.pending)
        let queuedSecond = try queue.enqueue(second, baseRevision: 2)
        #expect(queuedSecond)
        let removedReplaced = try queue.remove(sent)
        #expect(!removedReplaced)
        #expect(queue.pending != nil)

        try queue.rebase(on: TabOrderState(order: ["c", "a", "b"]), revision: 7)
        #expect(queue.pending?.baseRevision == 7)
        #expect(queue.pending?.edit.base == TabOrderState(order: ["c", "a", "b"]))
        let rebased = try #require(queue.pending)
        let removedRebased = try queue.remove(rebased)
        #expect(removedRebased)
        #expect(queue.pending == nil)
        #expect(!FileManager.default.fileExists(atPath: scratch.storage().pendingFile.path))
    }
}

@Suite("RefreshSchedule: backoff and Retry-After")
struct RefreshScheduleTests {
    @Test("Each retry's wait is within the backoff's growing cap, or the rest of a Retry-After when longer")
    func retryDelays() {
        var schedule = RefreshSchedule(backoff: Backoff(baseDelay: .milliseconds(100), maxDelay: .seconds(1)))
        for attempt in 0..<6 {
            let delay = schedule.nextRetryDelay(atLeast: nil)
            #expect(delay >= .zero && delay <= schedule.backoff.ceiling(attempt: attempt))
        }
        #expect(schedule.failures == 6)
        let delay = schedule.nextRetryDelay(atLeast: .seconds(30))
        #expect(delay == .seconds(30))
        schedule.answered()
        #expect(schedule.failures == 0)
    }

    @Test("A Retry-After is kept until it passes; a shorter one does not cut a longer one short")
    func retryAfter() {
        var schedule = RefreshSchedule(backoff: Backoff(baseDelay: .milliseconds(100), maxDelay: .seconds(1)))
        let now = ContinuousClock.now
        let before = schedule.remainingWait(now: now)
        #expect(before == nil)
        schedule.honour(retryAfter: .seconds(10), now: now)
        schedule.honour(retryAfter: .seconds(2), now: now)
        let during = schedule.remainingWait(now: now + .seconds(4))
        #expect(during == .seconds(6))
        let after = schedule.remainingWait(now: now + .seconds(11))
        #expect(after == nil)
        #expect(schedule.notBefore == nil)
    }
}

@Suite("EventFollower and TokenGate")
struct EventFollowerAndTokenGateTests {
    @Test("One stream at a time; a stream that ended after another started does not stop the new one")
    func generations() async {
        var follower = EventFollower()
        follower.begin { _ in Task {} }
        let first = follower.generation
        follower.begin { _ in Task {} }
        #expect(follower.generation == first)
        follower.stop()
        #expect(!follower.isFollowing)
        follower.begin { _ in Task {} }
        let endedOld = follower.ended(first)
        #expect(!endedOld)
        #expect(follower.isFollowing)
        let endedCurrent = follower.ended(follower.generation)
        #expect(endedCurrent)
        #expect(!follower.isFollowing)
    }

    @Test("After a refusal only a different token passes, the absence of one included")
    func refusedTokens() {
        var gate = TokenGate()
        let admitsFirst = gate.admits("a")
        #expect(admitsFirst)
        gate.refuse("a")
        #expect(gate.isClosed)
        let admitsRefused = gate.admits("a")
        #expect(!admitsRefused)
        let admitsOther = gate.admits("b")
        #expect(admitsOther)
        #expect(!gate.isClosed)
        gate.refuse(nil)
        let admitsNone = gate.admits(nil)
        #expect(!admitsNone)
        let admitsNext = gate.admits("c")
        #expect(admitsNext)
    }
}

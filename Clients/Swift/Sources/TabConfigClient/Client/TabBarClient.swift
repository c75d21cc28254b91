import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves an app its tab bar from the tabconfig service and saves the user's reordered tabs.
///
/// - The last good answer is kept on disk and served at once at the next launch, marked
///   ``TabBarDelivery/Source/cached``, while the client revalidates it (`If-None-Match`); a first launch without the
///   service gets the bundled default.
/// - While the app is active (``setActive(_:)``) the client follows the service's event stream and revalidates when a
///   new version goes live, and on a timer when ``Configuration/refreshInterval`` asks for one.
/// - A save (``save(_:baseRevision:)``) is written to disk before anything is sent, and sent until the service stores
///   it: at once, then when the service is reachable again, at the next launch; ``save(_:baseRevision:)`` returns
///   what became of it and ``saveOutcomes`` what becomes of it later. A save that meets another device's
///   newer one is made again on the newer order (``TabOrderEdit/applied(to:)``).
/// - Failed requests are retried with exponential backoff and full jitter, never before a `Retry-After`; after a 401
///   or 403 nothing is sent until the token provider gives another token.
/// - Tab opens and failed opens (``reportOpen(tab:version:)``, ``reportOpenFailure(tab:version:)``, a crash while
///   opening one: ``beginOpening(tab:version:)``) are kept on disk and reported for guarded rollouts, at most once a
///   ``Configuration/reportInterval`` and when the app goes to the background, apart from the tab bar's requests.
///
/// Deliveries come through ``updates`` (the latest first) and ``current``; the link's state through ``status``.
/// Make one client per configuration and keep it for the app's life: its timers and streams run until
/// ``shutdown()``.
public actor TabBarClient {
    /// What the client was made with.
    public nonisolated let configuration: Configuration
    let transport: HTTPTransport
    /// The event stream's connections, on one session for the client's life.
    let eventStreams: EventStreamSession
    /// The files of the user whose tab bar the client holds; for `.me` those of the user the token named last, nil
    /// while it named no one.
    var storage: ClientStorage?
    let deliveries = Broadcast<TabBarDelivery>()
    let statuses = Broadcast<Status>(Status())
    let outcomes = Broadcast<SaveOutcome>(replaysLatest: false)

    /// The answer served: from the service, the disk or the bundle.
    var answers: AnswerCache
    /// The save waiting to be stored by the service, and the stored order as last read.
    var saves: SaveQueue
    /// When to ask the service again: backoff, `Retry-After`, the retry waiting, the periodic refresh.
    var schedule: RefreshSchedule
    /// The event stream followed while the app is active.
    var events = EventFollower()
    /// Holds requests back after a 401 or 403 until the token provider gives another token.
    var tokens = TokenGate()
    /// The tab opens counted and not yet reported, and the opening mark, in the held user's reports file.
    nonisolated let reports: ReportBook
    /// When the tab opens are reported next.
    var reporting: ReportSchedule
    /// Answers reports instead of the service, in tests.
    var reportSender: (@Sendable (URLRequest) async throws -> HTTPAnswer)?
    var isActive = false
    var stopped = false
    /// The revalidation in flight, which a second one joins.
    var fetchTask: Task<TabBarDelivery, any Error>?
    /// The sending of pending saves in flight, which a second one joins.
    var sendTask: Task<SavedTabOrder?, any Error>?
    /// Awaited after a save read the stored order and before it writes: lets a test make two saves race.
    var beforeTabOrderWrite: (@Sendable () async -> Void)?

    /// A client; nothing is read or sent until ``start()`` (or another call) needs it.
    public init(configuration: Configuration) {
        self.configuration = configuration
        transport = HTTPTransport(timeout: configuration.requestTimeout)
        eventStreams = EventStreamSession(idleTimeout: configuration.eventStreamIdleTimeout)
        storage = configuration.identifiesUserByToken ? nil : ClientStorage(configuration)
        answers = AnswerCache(storage: storage, bundled: configuration.bundledDefault)
        saves = SaveQueue(storage: storage)
        schedule = RefreshSchedule(backoff: configuration.retryPolicy.backoff)
        reports = ReportBook(storage: storage)
        reporting = ReportSchedule(interval: configuration.reportInterval)
        if reporting.isOff { reports.close() }
    }

    /// The latest delivery, nil before anything could be served.
    public nonisolated var current: TabBarDelivery? { deliveries.current }

    /// Every delivery from now on, the latest first; the stream ends when the client is shut down.
    public nonisolated var updates: AsyncStream<TabBarDelivery> { deliveries.stream() }

    /// The link's state now.
    public nonisolated var status: Status { statuses.current ?? Status() }

    /// Every change of ``status``, the current one first.
    public nonisolated var statusUpdates: AsyncStream<Status> { statuses.stream() }

    /// The edit waiting to be stored by the service, if any.
    public var pendingEdit: TabOrderEdit? {
        get async {
            await loadIfNeeded()
            return saves.pending?.edit
        }
    }

    /// Serves what the disk holds (the last good answer for this request, else the bundled default, with a pending
    /// save applied) at once, then revalidates it with the service in the background and sends a pending save. For
    /// ``User/me`` it first asks the token provider who the user is.
    public func start() async {
        guard !stopped else { return }
        await loadIfNeeded(identifying: true)
        revalidateInBackground()
    }

    /// Stops everything: requests in flight, the event stream, timers, the counting of tab opens. The streams end;
    /// later calls throw ``TabBarClientError/stopped``. A pending save and the tab opens not yet reported stay on
    /// disk for the next launch.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        isActive = false
        events.stop()
        schedule.stopPeriodic()
        schedule.cancelRecovery()
        reporting.cancel()
        reports.close()
        fetchTask?.cancel()
        sendTask?.cancel()
        transport.invalidate()
        eventStreams.invalidate()
        deliveries.finish()
        statuses.finish()
        outcomes.finish()
    }

    /// Signs the user out on this device: removes the user's cached answer, pending save and tab opens not yet
    /// reported from the storage directory, for ``User/id(_:)`` and ``User/me`` alike (the user the token named
    /// last), and shuts the client down. With `sendingPendingSave`, a pending save is first sent, for at most
    /// `timeout`, and its outcome returned; a save not stored by then is discarded. After ``shutdown()`` nothing is
    /// sent, and the files are removed all the same. A later client for the same user starts from the bundled
    /// default. Throws only when the files could not be removed.
    @discardableResult
    public func signOut(sendingPendingSave: Bool = true, timeout: Duration = .seconds(10)) async throws
        -> SaveOutcome?
    {
        let outcome = sendingPendingSave && !stopped ? (try? await sendPendingSave(timeout: timeout)) ?? nil : nil
        await loadIfNeeded()
        shutdown()
        do {
            try storage?.removeAll()
        } catch {
            throw record(.storage("the user's files could not be removed: \(error.localizedDescription)"))
        }
        return outcome
    }

    /// Reads the disk once: the last good answer if it answers this request, else the bundled default; the
    /// pending save if it is this client's and user's. For ``User/me`` it asks the token provider whose files to
    /// read first, and again with `identifying` even when they were read (see ``hold(userNamedBy:)``).
    func loadIfNeeded(identifying: Bool = false) async {
        if configuration.identifiesUserByToken, identifying || !answers.loaded {
            do {
                hold(userNamedBy: try await configuration.tokenProvider?() ?? nil)
            } catch {
                // Who signed in is unknown: the user held stays, nobody's until a token names one.
                _ = record(.tokenUnavailable(String(describing: error)))
            }
        }
        readFiles()
    }

    /// Reads the held user's files once, delivers what they hold and schedules a report of the tab opens they hold.
    private func readFiles() {
        guard !answers.loaded else { return }
        if configuration.identifiesUserByToken {
            // Earlier releases kept one set of files for every user of `.me`: whose they are is unknown, so they go.
            try? ClientStorage(configuration).removeAll()
        }
        answers.load(request: requestKey)
        saves.load()
        deliver()
        scheduleReport()
    }

    /// For ``User/me``: makes the files of the user `token` names (none when it names no one) the ones the client
    /// holds, unless they are already. When the user changed, what the client held for the one before is dropped
    /// (it stays on disk for their next sign-in), the new user's tab bar and pending save are read and delivered,
    /// and revalidated.
    func hold(userNamedBy token: String?) {
        guard configuration.identifiesUserByToken else { return }
        let subject = TokenSubject.of(token)
        guard !answers.loaded || subject != storage?.subject else { return }
        let changed = answers.loaded
        storage = subject.map { ClientStorage(configuration, subject: $0) }
        answers = AnswerCache(storage: storage, bundled: configuration.bundledDefault)
        saves = SaveQueue(storage: storage)
        reports.hold(storage)
        readFiles()
        if changed { revalidateInBackground() }
    }

    /// Throws when shut down; loads the disk otherwise (see ``loadIfNeeded(identifying:)``).
    func prepare(identifying: Bool = false) async throws {
        guard !stopped else { throw TabBarClientError.stopped }
        await loadIfNeeded(identifying: identifying)
    }

    /// Hands the held answer to the app, with the pending save's edit applied to it.
    @discardableResult
    func deliver() -> TabBarDelivery? {
        statuses.update { $0.hasPendingSave = saves.pending != nil }
        guard let delivery = answers.delivery(pending: saves.pending) else { return nil }
        deliveries.publish(delivery)
        return delivery
    }

    /// Records `error` as the last one and returns it, to be thrown.
    func record(_ error: TabBarClientError) -> TabBarClientError {
        statuses.update { $0.lastError = error }
        return error
    }

    /// Lets a test run `hook` between a save's read of the stored order and its write.
    func setBeforeTabOrderWrite(_ hook: (@Sendable () async -> Void)?) {
        beforeTabOrderWrite = hook
    }
}

extension TabBarClient {
    /// Whose tab bar a client asks for.
    public enum User: Sendable, Hashable {
        /// The user with this id (what the bearer token's `sub` names when the service checks tokens).
        case id(String)
        /// The user the bearer token names (`/users/me/…`). The client tells users apart by the token's `sub`,
        /// read without verifying it: each has files of their own, a cached tab bar is shown only to its user and a
        /// pending save sent only with a token of the user who made it. While the token names no one (none, not a
        /// JWT, no `sub`) nothing is read from or kept on disk, and a save throws ``TabBarClientError/noUser``.
        case me

        /// The path segment naming the user.
        var pathComponent: String {
            switch self {
            case .id(let id): id
            case .me: "me"
            }
        }
    }
}

extension TabBarClient {
    /// How failed requests are retried: exponential backoff with full jitter (each wait a random time up to
    /// `min(maxDelay, baseDelay × 2ⁿ)`), never earlier than a `Retry-After` asks; and how often a save is made again
    /// on a newer order before the client gives up for the time being.
    public struct RetryPolicy: Sendable, Hashable {
        /// The cap of the first retry's wait.
        public var baseDelay: Duration
        /// The cap of every wait.
        public var maxDelay: Duration
        /// Attempts of one save (each a conflict with another device's save, made again on the newer order) before
        /// the save waits for the next occasion (foreground, launch, event stream, backoff timer).
        public var maxSaveAttempts: Int

        /// A policy; the defaults wait up to 1 s, 2 s, 4 s, … 5 minutes, and try a save 5 times.
        public init(baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(300), maxSaveAttempts: Int = 5) {
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
            self.maxSaveAttempts = max(1, maxSaveAttempts)
        }

        /// The backoff of these delays.
        var backoff: Backoff { Backoff(baseDelay: baseDelay, maxDelay: maxDelay) }
    }
}

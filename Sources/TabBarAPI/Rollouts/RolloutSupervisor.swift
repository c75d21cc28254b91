import Dispatch
import Foundation
import Logging
import Synchronization
import TabBarModel
import TabBarStore

/// The service's side of staged rollouts (docs/rollouts.md): the apps' reports counted in memory, the tick that adds
/// them to the store and moves each running rollout (advance, complete, roll back), and the actions of people. Every
/// change goes through ``TabBarStore/writeRolloutState(_:replacing:audit:)``, which writes only while the store holds
/// the state the change was decided from: of several replicas deciding alike, one writes, and the others hear of it.
final class RolloutSupervisor: Sendable {
    /// What a person may do to a staged rollout.
    enum Action: String, Sendable, CaseIterable {
        case pause, resume, advance, rollback
    }

    /// The audit entries' key name for the changes the service makes by itself.
    static let actor = "rollout"

    /// Counts of one stage of one rollout, not yet added to the store.
    private struct CountKey: Hashable {
        var client: String
        var tab: String
        var plan: String
        var stage: Int
    }

    let catalog: Catalog
    private let metrics: ServiceMetrics?
    private let logger: Logger
    private let interval: Duration
    private let counts = Mutex<[CountKey: (opened: Int, failed: Int)]>([:])
    /// Why each rollout whose hold has passed waits, as the last tick judged (by client and tab).
    private let waiting = Mutex<[RolloutKey: String]>([:])
    /// Where ticks and people's actions run, one at a time, off the request threads.
    private let queue = DispatchQueue(label: "tabconfig.rollouts")
    private let running = Atomic(false)

    init(catalog: Catalog, interval: Duration, metrics: ServiceMetrics?, logger: Logger) {
        self.catalog = catalog
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
    }

    // MARK: - Reports

    /// Counts a report's figures for `client`'s `version`: only for the live version and the tabs whose staged rollout
    /// runs there. Returns how many tabs were counted.
    @discardableResult
    func count(client: String, version: Int, tabs: [String: (opened: Int, failed: Int)]) -> Int {
        guard let live = catalog.live(client), live.stored.version == version else { return 0 }
        var counted: [(CountKey, (opened: Int, failed: Int))] = []
        for (tab, figures) in tabs {
            guard let plan = live.stagedRollouts[tab]?.plan else { continue }
            let state = live.rollouts[tab]
            guard state == nil || state?.phase == .running else { continue }
            counted.append((CountKey(client: client, tab: tab, plan: plan, stage: state?.stage ?? 0), figures))
        }
        guard !counted.isEmpty else { return 0 }
        counts.withLock { counts in
            for (key, figures) in counted {
                let sum = counts[key] ?? (0, 0)
                counts[key] = (sum.opened + figures.opened, sum.failed + figures.failed)
            }
        }
        return counted.count
    }

    // MARK: - The tick

    /// Runs ``tick(now:)`` every interval until ``stop()``.
    func start() {
        running.store(true, ordering: .relaxed)
        scheduleTick()
    }

    private func scheduleTick() {
        let (seconds, attoseconds) = interval.components
        let delay = DispatchTimeInterval.nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, running.load(ordering: .relaxed) else { return }
            tick()
            scheduleTick()
        }
    }

    /// Stops the ticks; the counts not yet added are dropped (a lost flush loses counts, never state).
    func stop() {
        running.store(false, ordering: .relaxed)
        queue.sync {}
    }

    /// Runs a tick now and waits for it (for tests and the `advance` of people).
    func tickNow(now: Date = Date()) {
        queue.sync { tick(now: now) }
    }

    /// For every live client with staged rollouts: starts the rollouts whose plan is new, ends those whose tab or
    /// plan left, adds the counts to the store and judges each running rollout. A store that cannot be reached skips
    /// the client until the next tick.
    private func tick(now: Date = Date()) {
        dispatchPrecondition(condition: .onQueue(queue))
        let pending = counts.withLock { counts in
            defer { counts = [:] }
            return counts
        }
        for live in catalog.clients() {
            let client = live.stored.client
            let staged = live.stagedRollouts.sorted { $0.key < $1.key }
            let flushed = pending.filter { $0.key.client == client }
            guard !staged.isEmpty || !live.rollouts.isEmpty || !catalog.store.rolloutStates(client: client).isEmpty
            else { continue }
            do {
                var states = try catalog.store.currentRolloutStates(client: client)
                var changed = try start(client: client, staged: live.stagedRollouts, states: states, now: now)
                for (key, figures) in flushed {
                    _ = try catalog.store.addRolloutCounts(
                        client: client, tab: key.tab, plan: key.plan, stage: key.stage, opened: figures.opened,
                        failed: figures.failed)
                }
                if changed || !flushed.isEmpty { states = try catalog.store.currentRolloutStates(client: client) }
                for (tab, (rollout, plan)) in staged {
                    guard let state = states.first(where: { $0.tab == tab }), state.plan == plan else { continue }
                    if try judge(client: client, tab: tab, rollout: rollout, state: state, now: now) { changed = true }
                }
                if changed { catalog.rolloutsChanged(client: client) }
            } catch {
                logger.warning(
                    "staged rollouts of a client not moved this tick: the store cannot be written",
                    metadata: ["client": "\(client)", "error": "\(error)"])
            }
        }
    }

    /// Writes the first stage of every staged rollout of `staged` whose state among `states` (the client's, as the
    /// store holds them) follows another plan (or none), and removes the states of tabs no longer staged; returns
    /// whether it wrote anything.
    private func start(
        client: String, staged: [String: (rollout: Rollout, plan: String)], states: [RolloutState], now: Date
    ) throws -> Bool {
        var changed = false
        if states.contains(where: { staged[$0.tab] == nil }) {
            try catalog.store.removeRolloutStates(client: client, keeping: Set(staged.keys))
            changed = true
        }
        for (tab, (rollout, plan)) in staged.sorted(by: { $0.key < $1.key }) {
            let state = states.first { $0.tab == tab }
            guard state?.plan != plan, let stages = rollout.stages else { continue }
            let started = RolloutState(
                client: client, tab: tab, plan: plan, stageStartedAt: now,
                phase: stages.count == 1 ? .completed : .running, updatedAt: now)
            if try catalog.store.writeRolloutState(started, replacing: state, audit: nil) != nil { changed = true }
        }
        return changed
    }

    /// Judges the running rollout of `tab` standing at `state`, writing what the verdict moves; returns whether it
    /// wrote a change.
    private func judge(client: String, tab: String, rollout: Rollout, state: RolloutState, now: Date) throws -> Bool {
        guard let stages = rollout.stages, state.phase == .running,
            let verdict = rollout.judge(
                stage: state.stage, startedAt: state.stageStartedAt, opened: state.opened, failed: state.failed,
                now: now)
        else { return false }
        let key = RolloutKey(client: client, tab: tab)
        if case .wait(let reason) = verdict {
            let first = waiting.withLock { $0.updateValue(reason, forKey: key) == nil }
            if first {
                logger.notice(
                    "staged rollout waits for opens",
                    metadata: ["client": "\(client)", "tab": "\(tab)", "reason": "\(reason)"])
            }
            return false
        }
        waiting.withLock { $0[key] = nil }
        let next: RolloutState
        let action: AuditAction
        switch verdict {
        case .hold, .wait:
            return false
        case .rollBack(let reason):
            next = Self.moved(state, phase: .rolledBack, reason: reason)
            action = .rollBackRollout
            metrics?.rolledBack()
        case .advance(let stage):
            next = Self.moved(state, to: stage, at: now)
            action = .advanceRollout
        case .complete:
            next = Self.moved(state, to: stages.count - 1, at: now, phase: .completed)
            action = .completeRollout
        }
        let written = try catalog.store.writeRolloutState(
            next, replacing: state, audit: Self.record(state, next, action: action, key: Self.actor, requestID: nil))
        if written != nil {
            logger.notice(
                "staged rollout \(verdict.word)",
                metadata: [
                    "client": "\(client)", "tab": "\(tab)", "stage": "\(next.stage + 1) of \(stages.count)",
                    "opened": "\(state.opened)", "failed": "\(state.failed)", "reason": "\(next.reason ?? "")",
                ])
        }
        return written != nil
    }

    /// Why the rollout of `tab` waits, as the last tick judged it; nil when it does not.
    func waitingReason(client: String, tab: String) -> String? {
        waiting.withLock { $0[RolloutKey(client: client, tab: tab)] }
    }

    // MARK: - People

    /// What a person's `action` on the staged rollout of `tab` does, by `key` (the admin key's name): the state after
    /// it. Throws a 404 for a tab without a staged rollout, a 409 for an action the rollout's phase does not allow
    /// (or a change made meanwhile by another replica), the store's errors.
    func act(_ action: Action, client: String, tab: String, key: String, requestID: String?) throws -> RolloutState {
        try queue.sync {
            guard let live = catalog.live(client) else { throw APIError.unknownClient(client) }
            guard let (rollout, plan) = live.stagedRollouts[tab], let stages = rollout.stages else {
                throw APIError.notFound("Client '\(client)' has no staged rollout of tab '\(tab)'.")
            }
            let now = Date()
            let states = try catalog.store.currentRolloutStates(client: client)
            var current = states.first { $0.tab == tab }
            if current?.plan != plan {
                _ = try start(client: client, staged: live.stagedRollouts, states: states, now: now)
                current = try catalog.store.currentRolloutStates(client: client).first { $0.tab == tab }
            }
            guard let state = current, state.plan == plan else { throw APIError.rolloutChanged }
            let (next, auditAction) = try Self.acted(action, on: state, stages: stages.count, by: key, at: now)
            guard
                let written = try catalog.store.writeRolloutState(
                    next, replacing: state,
                    audit: Self.record(state, next, action: auditAction, key: key, requestID: requestID))
            else { throw APIError.rolloutChanged }
            if auditAction == .rollBackRollout { metrics?.rolledBack() }
            waiting.withLock { $0[state.key] = nil }
            catalog.rolloutsChanged(client: client)
            return written
        }
    }

    /// The state after a person's `action` on `state` of a rollout of `stages` stages, and its audit action.
    private static func acted(
        _ action: Action, on state: RolloutState, stages: Int, by key: String, at now: Date
    ) throws -> (RolloutState, AuditAction) {
        switch (action, state.phase) {
        case (.pause, .running):
            var next = state
            next.phase = .paused
            next.reason = "paused by \(key)"
            return (next, .pauseRollout)
        case (.resume, .paused):
            var next = state
            next.phase = .running
            next.reason = nil
            return (next, .resumeRollout)
        case (.advance, .running), (.advance, .paused):
            let last = state.stage + 1 >= stages - 1
            var next = moved(
                state, to: min(state.stage + 1, stages - 1), at: now, phase: last ? .completed : state.phase)
            next.reason = "advanced by \(key)"
            return (next, last ? .completeRollout : .advanceRollout)
        case (.rollback, .running), (.rollback, .paused), (.rollback, .completed):
            return (moved(state, phase: .rolledBack, reason: "rolled back by \(key)"), .rollBackRollout)
        default:
            throw APIError.rolloutPhase(action: action.rawValue, phase: state.phase.rawValue)
        }
    }

    /// `state` at the start of `stage` at `now`, its counts at 0, in `phase` (its own by default).
    private static func moved(
        _ state: RolloutState, to stage: Int, at now: Date, phase: RolloutState.Phase? = nil
    ) -> RolloutState {
        var next = state
        next.stage = stage
        next.stageStartedAt = now
        next.opened = 0
        next.failed = 0
        next.phase = phase ?? state.phase
        next.reason = nil
        return next
    }

    /// `state` in `phase` for `reason`, where it stands otherwise.
    private static func moved(_ state: RolloutState, phase: RolloutState.Phase, reason: String) -> RolloutState {
        var next = state
        next.phase = phase
        next.reason = reason
        return next
    }

    /// The audit record of moving `state` to `next`, with the figures it was decided on.
    private static func record(
        _ state: RolloutState, _ next: RolloutState, action: AuditAction, key: String, requestID: String?
    ) -> AuditRecord {
        AuditRecord(
            key: key, action: action, requestID: requestID,
            rollout: AuditRollout(
                tab: state.tab, stage: state.stage, toStage: next.stage, opened: state.opened, failed: state.failed,
                phase: next.phase, reason: next.reason))
    }
}

extension RolloutVerdict {
    /// What the verdict did, for the log.
    fileprivate var word: String {
        switch self {
        case .rollBack: "rolled back"
        case .advance: "advanced"
        case .complete: "completed"
        case .wait: "waits"
        case .hold: "holds"
        }
    }
}

extension RolloutState {
    /// Where the rollout stands, as far as answers go.
    var standing: RolloutStanding {
        switch phase {
        case .running, .paused: .stage(stage)
        case .completed: .completed
        case .rolledBack: .rolledBack
        }
    }
}

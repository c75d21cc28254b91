import Foundation

/// The file store's staged rollouts' states: every client's, in memory and in `rollouts.json` in the data directory,
/// which each change rewrites whole and atomically (temp file, fsync, rename, directory fsync), as `builds.json` is.
/// States change at most once a tick per rollout, and a rewrite costs a few hundred bytes per rollout. The file keeps
/// the last revision given out, so that a revision never names two states.
struct RolloutTable: Sendable {
    /// The file's name in the data directory.
    static let fileName = "rollouts.json"

    private(set) var states: [RolloutKey: RolloutState] = [:]
    /// The last revision given out.
    private(set) var lastRevision = 0

    /// The states of `client`, sorted by tab.
    func states(client: String) -> [RolloutState] {
        states.values.filter { $0.client == client }.sorted { $0.tab < $1.tab }
    }

    /// The table with `state` written at `date` under the next revision.
    func writing(_ state: RolloutState, at date: Date) -> (table: RolloutTable, state: RolloutState) {
        var table = self
        table.lastRevision += 1
        var written = state
        written.revision = table.lastRevision
        written.stageStartedAt = StoredTime.rounded(state.stageStartedAt)
        written.updatedAt = date
        table.states[state.key] = written
        return (table, written)
    }

    /// The table with `counts` added to the state of `key`, unchanged otherwise.
    func adding(_ key: RolloutKey, opened: Int, failed: Int) -> RolloutTable {
        var table = self
        table.states[key]?.opened += opened
        table.states[key]?.failed += failed
        return table
    }

    /// The table without the client's states whose tab is not in `keeping`.
    func removing(client: String, keeping: Set<String>) -> RolloutTable {
        var table = self
        table.states = states.filter { $0.key.client != client || keeping.contains($0.key.tab) }
        return table
    }

    /// What the file holds: dates as milliseconds since 1970.
    private struct File: Codable {
        var format: Int
        var lastRevision: Int
        var rollouts: [Entry]

        struct Entry: Codable {
            var client: String
            var tab: String
            var plan: String
            var stage: Int
            var stageStartedAt: Int64
            var opened: Int
            var failed: Int
            var phase: RolloutState.Phase
            var reason: String?
            var revision: Int
            var updatedAt: Int64
        }
    }

    /// The file's bytes.
    func encoded() throws -> Data {
        let file = File(
            format: 1, lastRevision: lastRevision,
            rollouts: states.values.sorted { $0.key < $1.key }.map { state in
                File.Entry(
                    client: state.client, tab: state.tab, plan: state.plan, stage: state.stage,
                    stageStartedAt: StoredTime.milliseconds(state.stageStartedAt), opened: state.opened,
                    failed: state.failed, phase: state.phase, reason: state.reason, revision: state.revision,
                    updatedAt: StoredTime.milliseconds(state.updatedAt))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(file)
    }

    /// The table a file holds.
    static func decode(_ data: Data) throws -> RolloutTable {
        let file = try JSONDecoder().decode(File.self, from: data)
        guard file.format == 1 else {
            throw StoreOpenError("\(fileName) has format \(file.format), which this release does not read")
        }
        var table = RolloutTable()
        table.lastRevision = file.lastRevision
        for entry in file.rollouts {
            let state = RolloutState(
                client: entry.client, tab: entry.tab, plan: entry.plan, stage: entry.stage,
                stageStartedAt: StoredTime.date(entry.stageStartedAt), opened: entry.opened, failed: entry.failed,
                phase: entry.phase, reason: entry.reason, revision: entry.revision,
                updatedAt: StoredTime.date(entry.updatedAt))
            table.states[state.key] = state
            table.lastRevision = max(table.lastRevision, entry.revision)
        }
        return table
    }
}

import Foundation

/// One change as the audit log keeps it.
public struct AuditEntry: Sendable, Equatable, Codable {
    /// Position in the store's audit log: increasing in the order changes committed. The file store numbers its
    /// entries 1, 2, 3 … in file order (a repair that drops a damaged entry leaves its number out); PostgreSQL takes
    /// them from a `bigserial`, so numbers can be skipped.
    public var sequence: Int
    /// When the change was made, with millisecond precision, as stored (the version's `publishedAt` for a publish).
    public var time: Date
    /// The name of the admin key that made the change.
    public var key: String
    /// What kind of change it was.
    public var action: AuditAction
    /// The client changed.
    public var client: String
    /// For a publish, rollback or import: the new version; for a delete: the last version number the client had; for
    /// a build manifest's change: the client's live version then (0: none).
    public var version: Int
    /// The version live before the change; nil when there was none.
    public var previousVersion: Int?
    /// The version a rollback restored.
    public var rollbackOf: Int?
    /// What the change did to the client's tabs.
    public var summary: AuditSummary
    /// The publisher's note, if any.
    public var note: String?
    /// The id of the request that made the change, if any.
    public var requestID: String?
    /// For a build manifest's change: the build and the manifest's revision.
    public var build: AuditBuild?
    /// For a staged rollout's change: the tab, where it went and the figures it was decided on.
    public var rollout: AuditRollout?
    /// For a change request's step: the change, its revision and state after the step.
    public var change: AuditChange?
}

extension AuditEntry {
    /// The entry of a change decided by a store: `record`'s part, its summary made now against `previous` (the version
    /// live before the change), and the store's part.
    init(
        _ record: AuditRecord, sequence: Int, time: Date, client: String, version: Int, previous: ConfigVersion?,
        rollbackOf: Int?, note: String?
    ) {
        self.init(
            sequence: sequence, time: time, key: record.key, action: record.action, client: client, version: version,
            previousVersion: previous?.version, rollbackOf: rollbackOf, summary: record.summarize(previous), note: note,
            requestID: record.requestID)
    }

    /// The entry of a build manifest's change decided by a store: `record`'s part (its summary empty: a manifest
    /// changes no tab of the config), the client's live version (0: none) and the build.
    init(_ record: AuditRecord, sequence: Int, time: Date, client: String, liveVersion: Int, build: AuditBuild) {
        self.init(
            sequence: sequence, time: time, key: record.key, action: record.action, client: client,
            version: liveVersion, previousVersion: nil, rollbackOf: nil, summary: AuditSummary(), note: nil,
            requestID: record.requestID, build: build)
    }

    /// The entry of a change request's step decided by a store: `record`'s part (its summary empty: the document is
    /// not published by the step), the client's live version and the change as written.
    init(_ record: AuditRecord, sequence: Int, time: Date, client: String, liveVersion: Int, change: ChangeRequest) {
        self.init(
            sequence: sequence, time: time, key: record.key, action: record.action, client: client,
            version: liveVersion, previousVersion: nil, rollbackOf: nil, summary: AuditSummary(), note: change.note,
            requestID: record.requestID, change: AuditChange(change))
    }

    /// The entry of a staged rollout's change decided by a store: `record`'s part (its summary empty: the document is
    /// unchanged), the client's live version and the rollout with the revision of the state written.
    init(_ record: AuditRecord, sequence: Int, time: Date, client: String, liveVersion: Int, rollout: AuditRollout) {
        self.init(
            sequence: sequence, time: time, key: record.key, action: record.action, client: client,
            version: liveVersion, previousVersion: nil, rollbackOf: nil, summary: AuditSummary(), note: nil,
            requestID: record.requestID, rollout: rollout)
    }
}

/// The change request an audit entry of one of its steps names.
public struct AuditChange: Sendable, Equatable, Codable {
    /// The change's id.
    public var id: Int
    /// Its revision after the step.
    public var revision: Int
    /// Its state after the step.
    public var state: ChangeRequest.State
    /// The keys that approved it after the step.
    public var approvals: [String]

    /// Creates one.
    public init(id: Int, revision: Int, state: ChangeRequest.State, approvals: [String]) {
        self.id = id
        self.revision = revision
        self.state = state
        self.approvals = approvals
    }

    /// The audit part of `change` as written.
    public init(_ change: ChangeRequest) {
        self.init(id: change.id, revision: change.revision, state: change.state, approvals: change.approvals)
    }
}

/// The staged rollout an audit entry of its change names, with the figures the change was decided on.
public struct AuditRollout: Sendable, Equatable, Codable {
    /// The tab rolled out.
    public var tab: String
    /// The stage the rollout stood at when the change was decided, from 0.
    public var stage: Int
    /// The stage it stands at after the change.
    public var toStage: Int
    /// Opens reported in the stage judged, worked and failed.
    public var opened: Int
    public var failed: Int
    /// What it does after the change.
    public var phase: RolloutState.Phase
    /// Why: the rate over the guard, the person's note, the stage completed.
    public var reason: String?
    /// The revision of the state written (0 until the store writes it).
    public var revision: Int

    /// Creates one.
    public init(
        tab: String, stage: Int, toStage: Int, opened: Int, failed: Int, phase: RolloutState.Phase, reason: String?,
        revision: Int = 0
    ) {
        self.tab = tab
        self.stage = stage
        self.toStage = toStage
        self.opened = opened
        self.failed = failed
        self.phase = phase
        self.reason = reason
        self.revision = revision
    }
}

/// The build an audit entry of a manifest's change names.
public struct AuditBuild: Sendable, Equatable, Codable {
    /// The platform (`ios`).
    public var platform: String
    /// The app version in canonical form (`5.2.0`).
    public var appVersion: String
    /// The revision of the manifest registered, or of the one removed.
    public var revision: Int

    /// Creates one.
    public init(platform: String, appVersion: String, revision: Int) {
        self.platform = platform
        self.appVersion = appVersion
        self.revision = revision
    }
}

/// What kind of change an audit entry records.
public enum AuditAction: String, Sendable, Codable, CaseIterable {
    /// A new version of a client's config.
    case publish
    /// A new version restoring an earlier one.
    case rollback
    /// The deletion of a client with all its versions and customizations.
    case delete
    /// A new version brought in from elsewhere (a config-as-code apply, a plist import).
    case `import`
    /// A build manifest registered, new or replacing another (registering an equal one is not a change).
    case registerBuild
    /// A build manifest removed.
    case removeBuild
    /// A staged rollout moved to its next stage (by the service, or a person's `advance`).
    case advanceRollout
    /// A staged rollout rolled back: by the service, its guard failed; by a person, `rollback`.
    case rollBackRollout
    /// A staged rollout paused by a person.
    case pauseRollout
    /// A paused rollout resumed by a person.
    case resumeRollout
    /// A staged rollout that reached its last stage.
    case completeRollout
    /// A change request opened.
    case openChange
    /// A change request's document, note or time replaced (its approvals dropped).
    case updateChange
    /// A change request approved by a key other than its author's.
    case approveChange
    /// A change request closed without being published.
    case closeChange
    /// A scheduled change request whose time came without its approvals or its base: nothing published.
    case failChange
}

/// What a change did to the client's tabs, against the version live before it (tab ids, each list sorted).
public struct AuditSummary: Sendable, Equatable, Codable {
    /// Tabs the new version has and the previous one did not.
    public var tabsAdded: [String]
    /// Tabs the previous version had and the new one does not (for a delete: every tab).
    public var tabsRemoved: [String]
    /// Tabs in both whose definition differs.
    public var tabsChanged: [String]

    /// Creates a summary.
    public init(tabsAdded: [String] = [], tabsRemoved: [String] = [], tabsChanged: [String] = []) {
        self.tabsAdded = tabsAdded
        self.tabsRemoved = tabsRemoved
        self.tabsChanged = tabsChanged
    }
}

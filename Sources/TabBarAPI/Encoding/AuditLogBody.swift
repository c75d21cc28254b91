import Foundation
import TabBarStore

/// `GET /v1/audit` answer: entries oldest first, and the link to the next page when there is one.
struct AuditLogBody: Encodable {
    var entries: [AuditEntryBody]
    var next: String?
}

/// One change as `GET /v1/audit` shows it.
struct AuditEntryBody: Encodable {
    var sequence: Int
    var time: Date
    var key: String
    var action: String
    var client: String
    var version: Int
    var previousVersion: Int?
    var rollbackOf: Int?
    var tabsAdded: [String]
    var tabsRemoved: [String]
    var tabsChanged: [String]
    var note: String?
    var requestId: String?
    /// For a build manifest's change: the build and the manifest's revision.
    var build: AuditBuild?
    /// For a staged rollout's change: the tab, where it went and the figures it was decided on.
    var rollout: AuditRollout?

    init(_ entry: AuditEntry) {
        sequence = entry.sequence
        time = entry.time
        key = entry.key
        action = entry.action.rawValue
        client = entry.client
        version = entry.version
        previousVersion = entry.previousVersion
        rollbackOf = entry.rollbackOf
        tabsAdded = entry.summary.tabsAdded
        tabsRemoved = entry.summary.tabsRemoved
        tabsChanged = entry.summary.tabsChanged
        note = entry.note
        requestId = entry.requestID
        build = entry.build
        rollout = entry.rollout
    }
}

import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

extension AuditRecord {
    /// The record of publishing `config` (a publish, a rollback or an import) by `key`: its summary is the tab diff
    /// against the version live before, decoded again only when it is not the one `live` holds.
    static func publishing(
        _ config: TabBarConfig, action: AuditAction, live: LiveConfig?, key: AdminKey, request: Request
    ) -> AuditRecord {
        publishing(config, action: action, live: live, keyName: key.name, requestID: request.requestID)
    }

    /// `publishing(_:action:live:key:request:)` for a change no admin key or request made (the sample's seed).
    static func publishing(
        _ config: TabBarConfig, action: AuditAction, live: LiveConfig?, keyName: String, requestID: String?
    ) -> AuditRecord {
        AuditRecord(key: keyName, action: action, requestID: requestID) { previous in
            let diff = ConfigDiff(live: previous.flatMap { decoded($0, live: live) }, proposed: config)
            return AuditSummary(tabsAdded: diff.tabsAdded, tabsRemoved: diff.tabsRemoved, tabsChanged: diff.tabsChanged)
        }
    }

    /// The record of deleting a client by `key`: every tab of the live version removed.
    static func deleting(live: LiveConfig?, key: AdminKey, request: Request) -> AuditRecord {
        AuditRecord(key: key.name, action: .delete, requestID: request.requestID) { previous in
            guard let config = previous.flatMap({ decoded($0, live: live) }) else { return AuditSummary() }
            // Every tab, in document order: what a new client's diff lists as added.
            return AuditSummary(tabsRemoved: ConfigDiff(live: nil, proposed: config).tabsAdded)
        }
    }

    /// The record of registering or removing a build manifest by `key` (`.registerBuild`, `.removeBuild`): it changes
    /// no tab of the config, so its summary is empty.
    static func changingBuild(_ action: AuditAction, key: AdminKey, request: Request) -> AuditRecord {
        AuditRecord(key: key.name, action: action, requestID: request.requestID) { _ in AuditSummary() }
    }

    /// The config of `version`: `live`'s when it is that version, else its document decoded.
    private static func decoded(_ version: ConfigVersion, live: LiveConfig?) -> TabBarConfig? {
        if let live, live.stored.version == version.version, live.stored.client == version.client { return live.config }
        return try? TabBarConfig.decode(json: version.document).get()
    }
}

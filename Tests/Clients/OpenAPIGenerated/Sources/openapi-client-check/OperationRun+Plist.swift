import Foundation
import OpenAPIRuntime

/// A plist import, the event stream of the client it made (until the client is deleted, which ends the stream), and
/// the audit log.
extension OperationRun {
    func plistAndEvents() async {
        await checklist.call("importPlist", "201 created") { try await importPlist() }
        let client = self.client
        let stream = Task {
            try await String(
                collecting: client.getTabEvents(path: .init(client: Self.plistClientID)).ok.body.textEventStream,
                upTo: 1 << 16)
        }
        await checklist.call("deleteClient", "204") { try await deleteWhenSubscribed() }
        let received = await stream.result
        await checklist.call("getTabEvents", "200 text/event-stream") { try Self.events(in: received.get()) }
    }

    /// Imports a plist of three tabs as a new client.
    private func importPlist() async throws -> String {
        let entries = ["Home", "Search", "Library"].map { title -> [String: String] in
            [
                "TabBarTitle": title, "TabBarImage": "tabbar_\(title.lowercased()).png",
                "RootViewController": "\(title)ViewController",
            ]
        }
        let plist = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
        let envelope = try await client.importPlist(
            query: .init(client: Self.plistClientID, note: "ApplicationHierarchy.plist"), body: .binary(HTTPBody(plist))
        ).created.body.json
        return "\(envelope.client) version \(envelope.version), tabs \(envelope.config.tabs.map(\.id))"
    }

    /// Deletes the imported client once its event stream is open.
    private func deleteWhenSubscribed() async throws -> String {
        try await counter.waitForSubscriber()
        _ = try await client.deleteClient(path: .init(client: Self.plistClientID)).noContent
        return "deleted \(Self.plistClientID)"
    }

    /// The events of a stream that ended: the live version, then the deletion.
    private static func events(in text: String) throws -> String {
        let events = text.split(separator: "\n").filter { $0.hasPrefix("event: ") }
        try CheckFailure.expect(events == ["event: version", "event: deleted"], "events \(events)")
        return "\(events.map { $0.dropFirst(7) }), then the stream ended"
    }

    /// The audit log since the first publish: that publish (its own `publishedAt` as `since` includes it), the second,
    /// the rollback, and the build manifest registered and removed (with the build).
    func audit(since: Date?) async {
        await checklist.call("getAuditLog", "200") {
            let log = try await client.getAuditLog(query: .init(client: Self.clientID, since: since)).ok.body.json
            let actions = log.entries.map(\.action.rawValue)
            try CheckFailure.expect(
                actions.suffix(5) == ["publish", "publish", "rollback", "registerBuild", "removeBuild"],
                "actions \(actions)")
            let builds = log.entries.suffix(2).compactMap(\.build)
            try CheckFailure.expect(
                builds.count == 2 && builds[0].revision == builds[1].revision, "builds \(builds)")
            return log.entries.map { "\($0.sequence) \($0.action.rawValue) at \(Self.text($0.time))" }
                .joined(separator: ", ")
        }
    }
}

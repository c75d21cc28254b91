/// The version history: the list, one version, a second publish and a rollback to the first.
extension OperationRun {
    func versions(published: Components.Schemas.PublishAnswer?) async {
        let first = published?.version ?? 1
        await checklist.call("listVersions", "200") {
            let list = try await client.listVersions(path: .init(client: Self.clientID)).ok.body.json
            try CheckFailure.expect(list.versions.first?.version == list.live, "the newest is not the live one")
            return "live \(list.live), " + list.versions.map { "\($0.version) at \(Self.text($0.publishedAt))" }
                .joined(separator: ", ")
        }
        await checklist.call("getVersion", "200") {
            let envelope = try await client.getVersion(path: .init(client: Self.clientID, version: first)).ok.body.json
            try CheckFailure.expect(envelope.version == first, "version \(envelope.version)")
            return "version \(envelope.version), \(envelope.config.tabs.count) tabs"
        }
        await checklist.call("publishConfig", "201 second version") {
            let created = try await client.publishConfig(
                path: .init(client: Self.clientID), query: .init(note: "badge 4"),
                body: .json(try SampleConfig.document(searchBadge: "4"))
            ).created.body.json
            return "version \(created.version), note \(created.note ?? "none")"
        }
        await checklist.call("rollback", "201 created") {
            let envelope = try await client.rollback(
                path: .init(client: Self.clientID), body: .json(.init(version: first, note: "back to the first"))
            ).created.body.json
            try CheckFailure.expect(envelope.rollbackOf == first, "rollbackOf \(envelope.rollbackOf ?? 0)")
            return "version \(envelope.version), rollbackOf \(first), publishedAt \(Self.text(envelope.publishedAt))"
        }
    }
}

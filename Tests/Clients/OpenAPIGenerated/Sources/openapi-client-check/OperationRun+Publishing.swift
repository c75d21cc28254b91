import TabConfigClient

/// Publishing: a publish, a dry run, a refused document, the client list and the live config (and its 304).
extension OperationRun {
    private var path: Operations.PublishConfig.Input.Path { .init(client: Self.clientID) }

    /// Publishes the sample config; returns the version as published, nil when that failed.
    func publishing() async -> Components.Schemas.PublishAnswer? {
        var published: Components.Schemas.PublishAnswer?
        await checklist.call("publishConfig", "201 created") {
            let sent = try SampleConfig.document()
            let created = try await client.publishConfig(
                path: path, query: .init(note: "generated client"), body: .json(sent))
            let envelope = try created.created.body.json
            try CheckFailure.expect(envelope.config == sent, "the document answered differs from the one sent")
            published = envelope
            let news = envelope.config.tabs.first { $0.id == "news" }
            return "version \(envelope.version), publishedAt \(Self.text(envelope.publishedAt)), news startsAt "
                + (news?.startsAt.map(Self.text) ?? "none")
        }
        await checklist.call("publishConfig", "200 dry run") {
            let changed = try SampleConfig.document(searchBadge: "4")
            let dryRun = try await client.publishConfig(path: path, query: .init(dryRun: true), body: .json(changed))
                .ok.body.json
            try CheckFailure.expect(dryRun.changed && dryRun.tabsChanged == ["search"], "changes \(dryRun.tabsChanged)")
            return "\(dryRun.changes.count) change(s) against version \(dryRun.liveVersion), "
                + "tabs changed \(dryRun.tabsChanged), \(dryRun.builds.count) build(s) lacking tabs, "
                + "\(dryRun.unopenable.count) unopenable"
        }
        await checklist.call("publishConfig", "422 problem") {
            let invalid = Components.Schemas.TabBarConfig(tabs: [try SampleConfig.document().tabs[0]])
            let problem = try await client.publishConfig(path: path, body: .json(invalid))
                .unprocessableContent.body.applicationProblemJson
            let first = try problem.errors?.first ?? { throw CheckFailure("no errors") }()
            try CheckFailure.expect(first.pointer == "/tabs", "first error at \(first.pointer ?? "nil")")
            return "\(problem.status) \(problem.title): \(first.pointer ?? "") \(first.message); "
                + (try WireTypes.agree(problem, as: Problem.self))
        }
        await checklist.call("listClients", "200") {
            let clients = try await client.listClients().ok.body.json.clients
            let mine = try clients.first { $0.client == Self.clientID } ?? { throw CheckFailure("not listed") }()
            return "\(clients.count) client(s); \(Self.clientID) version \(mine.version), publishedAt "
                + Self.text(mine.publishedAt)
        }
        await liveConfig()
        return published
    }

    /// `GET …/config`, then again with its ETag: 304.
    private func liveConfig() async {
        var eTag: String?
        await checklist.call("getConfig", "200") {
            let ok = try await client.getConfig(path: .init(client: Self.clientID)).ok
            let envelope = try ok.body.json
            try CheckFailure.expect(envelope.config == (try SampleConfig.document()), "the live document differs")
            eTag = ok.headers.eTag
            return "version \(envelope.version), publishedAt \(Self.text(envelope.publishedAt)), ETag \(eTag ?? "none")"
        }
        await checklist.call("getConfig", "304 with If-None-Match") {
            _ = try await client.getConfig(path: .init(client: Self.clientID), headers: .init(ifNoneMatch: eTag))
                .notModified
            return "not modified"
        }
    }
}

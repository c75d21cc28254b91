import TabConfigClient

/// What apps call: the default tab bar, a user's tab order, open tabs and tab bar, each with its 304.
extension OperationRun {
    func defaultTabBar() async {
        var eTag: String?
        let path = Operations.GetDefaultTabs.Input.Path(client: Self.clientID)
        let query = Operations.GetDefaultTabs.Input.Query(locale: "fr", platform: "ios")
        await checklist.call("getDefaultTabs", "200") {
            let ok = try await client.getDefaultTabs(path: path, query: query).ok
            let bar = try ok.body.json
            eTag = ok.headers.eTag
            try CheckFailure.expect(bar.tabs.first?.title == "Accueil", "first tab \(bar.tabs.first?.title ?? "")")
            try CheckFailure.expect(bar.appearance?.tintColor == "#FF3B30", "\(String(describing: bar.appearance))")
            let placed = bar.tabs.map { "\($0.id):\($0.placement?.rawValue ?? "-")" }
            return "locale \(bar.locale), initial \(bar.initialTab), \(placed.joined(separator: " ")), "
                + "Cache-Control \(ok.headers.cacheControl ?? "none"); " + (try WireTypes.agree(bar, as: TabBar.self))
        }
        await checklist.call("getDefaultTabs", "304 with If-None-Match") {
            _ = try await client.getDefaultTabs(path: path, query: query, headers: .init(ifNoneMatch: eTag)).notModified
            return "not modified"
        }
    }

    func tabOrder() async {
        let path = Operations.GetTabOrder.Input.Path(client: Self.clientID, user: Self.user)
        var eTag: String?
        await checklist.call("putTabOrder", "200") {
            let saved = try await client.putTabOrder(
                path: .init(client: Self.clientID, user: Self.user), query: .init(platform: "ios"),
                body: .json(.init(order: ["profile", "search", "home", "gone"], hidden: ["offline"]))
            ).ok.body.json
            try CheckFailure.expect(saved.ignored == ["gone"], "ignored \(saved.ignored)")
            return "revision \(saved.revision), order \(saved.order), ignored \(saved.ignored); "
                + (try WireTypes.agree(saved, as: SavedTabOrder.self))
        }
        await checklist.call("getTabOrder", "200") {
            let ok = try await client.getTabOrder(path: path).ok
            eTag = ok.headers.eTag
            let order = try ok.body.json
            return "order \(order.order), hidden \(order.hidden), revision \(order.revision); "
                + (try WireTypes.agree(order, as: TabOrder.self))
        }
        await checklist.call("getTabOrder", "304 with If-None-Match") {
            _ = try await client.getTabOrder(path: path, headers: .init(ifNoneMatch: eTag)).notModified
            return "not modified"
        }
    }

    /// Opens a tab, lists it, reads the user's tab bar (and its 304), closes the tab and resets the order.
    func userTabBar() async {
        let user = Operations.GetUserTabs.Input.Path(client: Self.clientID, user: Self.user)
        await checklist.call("openDynamicTab", "201 created") {
            let opened = try await client.openDynamicTab(
                path: .init(client: Self.clientID, user: Self.user),
                body: .json(.init(
                    template: "document", name: "q3-report", parameters: .init(additionalProperties: ["docId": "42"]),
                    title: "Q3 report"))
            ).created.body.json
            return "\(opened.tab.id), revision \(opened.revision)"
        }
        await checklist.call("listDynamicTabs", "200") {
            let tabs = try await client.listDynamicTabs(path: .init(client: Self.clientID, user: Self.user))
                .ok.body.json
            return "\(tabs.dynamicTabs.map(\.id)), revision \(tabs.revision)"
        }
        var eTag: String?
        let query = Operations.GetUserTabs.Input.Query(locale: "fr", platform: "ios")
        await checklist.call("getUserTabs", "200") {
            let ok = try await client.getUserTabs(path: user, query: query).ok
            eTag = ok.headers.eTag
            let bar = try ok.body.json
            let customization = bar.value2.customization
            let ids = bar.value1.tabs.map(\.id)
            try CheckFailure.expect(customization.source == .user && customization.hidden == ["offline"],
                "customization \(customization)")
            try CheckFailure.expect(ids.contains("news") && ids.contains("document:q3-report"), "tabs \(ids)")
            return "tabs \(ids), customization source \(customization.source.rawValue) revision "
                + "\(customization.revision) hidden \(customization.hidden), experiment "
                + (bar.value1.experiment.map { "\($0.key)/\($0.variation)" } ?? "none") + "; "
                + (try WireTypes.agree(bar, as: TabBar.self))
        }
        await checklist.call("getUserTabs", "304 with If-None-Match") {
            _ = try await client.getUserTabs(path: user, query: query, headers: .init(ifNoneMatch: eTag)).notModified
            return "not modified"
        }
        await checklist.call("closeDynamicTab", "204") {
            _ = try await client.closeDynamicTab(path: .init(client: Self.clientID, user: Self.user, name: "q3-report"))
                .noContent
            return "closed"
        }
        await checklist.call("deleteTabOrder", "204") {
            _ = try await client.deleteTabOrder(path: .init(client: Self.clientID, user: Self.user)).noContent
            return "reset"
        }
    }

    func explain() async {
        await checklist.call("explainTabs", "200") {
            let explanation = try await client.explainTabs(
                path: .init(client: Self.clientID), query: .init(platform: "ios", user: Self.user)
            ).ok.body.json
            let news = explanation.tabs.first { $0.id == "news" }
            try CheckFailure.expect(news?.present == true, "news \(String(describing: news))")
            let absent = explanation.tabs.filter { !$0.present }.map { "\($0.id) (\($0.reason?.message ?? ""))" }
            return "evaluatedAt \(Self.text(explanation.evaluatedAt)), absent: \(absent)"
        }
    }
}

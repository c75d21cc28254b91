import Foundation
import TabBarModel
import Testing

/// Tabs a user opens from the config's `tabTemplates`: the templates' rules, opening, and how open tabs join the
/// user's tab bar.
@Suite("Tabs a user opens")
struct DynamicTabTests {
    static let document = TabTemplate(
        id: "document", title: LocalizedTitle(key: "DOC", default: "Document", localized: ["fr": "Document FR"]),
        icon: Icon(image: "doc.png"),
        destination: Destination(type: .viewController, name: "DocumentViewController", parameters: ["mode": "read"]),
        parameters: ["docId", "mode"], maxOpen: 3)
    static let web = TabTemplate(
        id: "web", title: LocalizedTitle(default: "Web"), destination: Destination(type: .url, url: "https://example.com"),
        parameters: ["url"])

    static var config: TabBarConfig {
        var config = TabBarConfig.make(["home", "search", "library"], maxVisibleTabs: 4)
        config.tabTemplates = [document, web]
        return config
    }

    static func doc(_ name: String, title: String? = nil) -> DynamicTab {
        DynamicTab(template: "document", name: name, parameters: ["docId": name], title: title)
    }

    static func customized(order: [String] = [], hidden: [String] = [], open: [DynamicTab]) -> SavedCustomization {
        .saved(Customization(order: order, hidden: hidden, dynamicTabs: open), revision: 4)
    }

    // MARK: - Templates in the document

    @Test func templatesDecodeAndRoundTrip() throws {
        let decoded = try TabBarConfig.decode(json: Self.config.encoded()).get()
        #expect(decoded == Self.config)
        #expect(decoded.template("web")?.effectiveMaxOpen == TabTemplate.defaultMaxOpen)
    }

    @Test func everyWayATemplateCanBeWrongHasItsPointer() {
        let cases: [(String, (inout TabTemplate) -> Void, [String])] = [
            ("template id taken by a tab", { $0.id = "search" }, ["/tabTemplates/0/id"]),
            ("template id pattern", { $0.id = "Doc" }, ["/tabTemplates/0/id"]),
            ("maxOpen 0", { $0.maxOpen = 0 }, ["/tabTemplates/0/maxOpen"]),
            ("maxOpen 51", { $0.maxOpen = 51 }, ["/tabTemplates/0/maxOpen"]),
            ("parameter name", { $0.parameters = ["doc id"] }, ["/tabTemplates/0/parameters/0"]),
            ("duplicate parameter", { $0.parameters = ["a", "a"] }, ["/tabTemplates/0/parameters/1"]),
            (
                "destination without its name", { $0.destination = Destination(type: .storyboard) },
                ["/tabTemplates/0/destination/name"]
            ),
            ("empty title", { $0.title.default = "" }, ["/tabTemplates/0/title/default"]),
        ]
        for (name, change, pointers) in cases {
            var config = Self.config
            change(&config.tabTemplates![0])
            #expect(config.problemPointers == pointers, "\(name)")
        }
    }

    @Test func duplicateTemplateIDsAndTooManyTemplates() {
        var config = Self.config
        config.tabTemplates = [Self.document, Self.web, Self.document]
        #expect(config.problemPointers == ["/tabTemplates/2/id"])
        config.tabTemplates = (0..<21).map { index in
            var template = Self.web
            template.id = "web\(index)"
            return template
        }
        #expect(config.problemPointers == ["/tabTemplates"])
    }

    @Test func unknownTemplateFieldsAreProblems() throws {
        let json = #"{"tabs":[{"id":"a","title":{"default":"A"},"destination":{"type":"url","url":"https://a.example"}},{"id":"b","title":{"default":"B"},"destination":{"type":"url","url":"https://b.example"}}],"tabTemplates":[{"id":"doc","title":{"default":"Doc"},"destination":{"type":"url","url":"https://d.example"},"maxopen":3}]}"#
        guard case .failure(.invalid(let problems)) = TabBarConfig.decode(json: Data(json.utf8)) else {
            Issue.record("a misspelt field must not publish")
            return
        }
        #expect(problems.map(\.pointer) == ["/tabTemplates/0/maxopen"])
    }

    // MARK: - Opening

    @Test func openingIsIdempotentByName() throws {
        let request = OpenDynamicTabRequest(template: "document", name: "q3", parameters: ["docId": "42"], title: "Q3")
        let (tab, isNew) = try Self.config.open(request, given: []).get()
        #expect(isNew && tab == DynamicTab(template: "document", name: "q3", parameters: ["docId": "42"], title: "Q3"))
        let other = OpenDynamicTabRequest(template: "web", name: "q3", parameters: ["url": "https://x.example"])
        let (again, againIsNew) = try Self.config.open(other, given: [tab]).get()
        #expect(!againIsNew && again == tab, "the name is open: that tab, whatever else the request says")
    }

    @Test func unknownTemplateUndeclaredParametersAndMaxOpen() {
        let unknown = Self.config.open(OpenDynamicTabRequest(template: "documents", name: "a"), given: [])
        guard case .failure(.invalid(let problems)) = unknown else {
            Issue.record("expected 422")
            return
        }
        #expect(problems.map(\.pointer) == ["/template"])
        #expect(problems.first?.message.contains("document") == true, "did you mean")

        let undeclared = Self.config.open(
            OpenDynamicTabRequest(template: "document", name: "a", parameters: ["docID": "1", "zoom": "2"]), given: [])
        guard case .failure(.invalid(let parameterProblems)) = undeclared else {
            Issue.record("expected 422")
            return
        }
        #expect(parameterProblems.map(\.pointer) == ["/parameters/docID", "/parameters/zoom"])

        let open = [Self.doc("a"), Self.doc("b"), DynamicTab(template: "web", name: "w"), Self.doc("c")]
        guard case .failure(let rejection) = Self.config.open(OpenDynamicTabRequest(template: "document", name: "d"), given: open)
        else {
            Issue.record("expected 409")
            return
        }
        #expect(rejection == .tooMany(template: "document", maxOpen: 3))
        #expect((try? Self.config.open(OpenDynamicTabRequest(template: "web", name: "w2"), given: open).get())?.isNew == true)
    }

    @Test func closingRemovesTheTabAndItsPlaces() {
        let customization = Customization(
            order: ["search", "document:a", "home"], hidden: ["document:a"], dynamicTabs: [Self.doc("a"), Self.doc("b")])
        let closed = customization.closing("a")
        #expect(closed == Customization(order: ["search", "home"], hidden: [], dynamicTabs: [Self.doc("b")]))
        #expect(customization.closing("zzz") == nil)
    }

    // MARK: - In the user's tab bar

    @Test func openTabsFollowTheStaticOnesResolvedFromTheirTemplate() throws {
        let bar = Self.config.resolve(
            client: "c", version: 1, locale: "fr", saved: Self.customized(open: [Self.doc("a", title: "Q3 report"), Self.doc("b")]))
        #expect(bar.tabs.map(\.id) == ["home", "search", "library", "document:a", "document:b"])
        #expect(bar.tabs.map(\.placement) == [.bar, .bar, .bar, .more, .more])
        let own = bar.tabs[3]
        #expect(own.title == "Q3 report" && own.titleKey == nil)
        #expect(own.dynamic == ResolvedTab.Dynamic(template: "document", name: "a"))
        #expect(own.destination.parameters == ["mode": "read", "docId": "a"])
        #expect(own.hideable && !own.locked && own.icon?.image == "doc.png")
        let templated = bar.tabs[4]
        #expect(templated.title == "Document FR" && templated.titleKey == "DOC")
        #expect(bar.customization?.added == ["home", "search", "library"], "open tabs are the user's, not added")
    }

    @Test func openTabsAreOrderedAndHiddenLikeAnyTab() throws {
        let saved = Self.customized(
            order: ["document:b", "library", "home", "search"], hidden: ["document:a"],
            open: [Self.doc("a"), Self.doc("b")])
        let bar = Self.config.resolve(client: "c", version: 1, locale: "en", saved: saved)
        #expect(bar.tabs.map(\.id) == ["document:b", "library", "home", "search"])
        #expect(bar.customization?.hidden == ["document:a"])
    }

    @Test func aRemovedTemplateDropsItsTabsUntilItReturns() throws {
        let saved = Self.customized(order: ["document:b", "home", "web:w"], open: [Self.doc("b"), DynamicTab(template: "web", name: "w")])
        var without = Self.config
        without.tabTemplates = [Self.web]
        let bar = without.resolve(client: "c", version: 2, locale: "en", saved: saved)
        // search and library were never ordered: they take their default slots, as added tabs do.
        #expect(bar.tabs.map(\.id) == ["home", "search", "library", "web:w"])
        #expect(bar.customization?.dropped == ["document:b"])
        let back = Self.config.resolve(client: "c", version: 3, locale: "en", saved: saved)
        #expect(back.tabs.map(\.id) == ["document:b", "search", "library", "home", "web:w"])
        #expect(back.customization?.dropped == [])
    }

    @Test func aTabOrderMayNameOpenTabs() throws {
        let open = [Self.doc("a")]
        let plan = Self.config.mergePlan.including(open)
        let request = TabOrderRequest(order: ["document:a", "home", "document:zzz"], hidden: ["document:a"])
        let (customization, ignored) = try Self.config.check(request, plan: plan).get()
        #expect(customization.order == ["document:a", "home"] && customization.hidden == ["document:a"])
        #expect(ignored == ["document:zzz"])
    }

    @Test func openTabsAbsentForTheRequestKeepTheirPlaceWhenTheOrderIsRewritten() {
        let previous = Customization(order: ["home", "document:a", "search"], dynamicTabs: [Self.doc("a")])
        let rewritten = Customization(order: ["search", "home"], dynamicTabs: previous.dynamicTabs)
        #expect(rewritten.keeping(["document:a"], from: previous).order == ["search", "home", "document:a"])
    }
}

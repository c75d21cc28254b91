import Foundation
import Testing

@testable import TabBarModel

@Suite("AppBuild: one build, whatever way its version is written")
struct AppBuildTests {
    @Test(
        "5.2, 5.2.0, v5.2.0, 05.2.0 and 5.2.0+77 are one build; a prerelease is another",
        arguments: ["5.2", "5.2.0", "v5.2.0", "05.2.0", "5.2.0+77", "5.2.0.0"])
    func sameBuild(version: String) throws {
        let build = try #require(AppBuild(platform: "ios", appVersion: version))
        #expect(build == AppBuild(platform: "ios", appVersion: "5.2.0"))
        #expect(build.appVersion == "5.2.0")
        #expect(AppBuild(platform: "ios", appVersion: "5.2.0-beta.1")?.appVersion == "5.2.0-beta.1")
        #expect(build != AppBuild(platform: "ios", appVersion: "5.2.0-beta.1"))
        #expect(build != AppBuild(platform: "android", appVersion: "5.2.0"))
    }

    @Test(
        "A version already canonical is kept as it is; others are made canonical",
        arguments: [
            ("0.0.0", "0.0.0"), ("10.0.12", "10.0.12"), ("5.2.0", "5.2.0"), ("05.2.0", "5.2.0"), ("5.02.0", "5.2.0"),
            ("5.2", "5.2.0"), ("5.2.0-rc.1", "5.2.0-rc.1"), ("1234567890.0.0", "1234567890.0.0"),
        ])
    func canonical(version: String, expected: String) {
        #expect(AppBuild.canonicalVersion(version) == expected)
    }

    @Test("A platform matches ^[a-z][a-z0-9]{0,15}$ and a version is one targeting reads", arguments: [
        ("iOS", "5.2.0"), ("", "5.2.0"), ("9ios", "5.2.0"), ("abcdefghijklmnopq", "5.2.0"), ("ios", "five"),
        ("ios", "5..2"), ("ios", "1.2.3.4.5"), ("ios", "5.2.0."), ("ios", ".5.2.0"),
    ])
    func malformed(platform: String, version: String) {
        #expect(AppBuild(platform: platform, appVersion: version) == nil)
    }
}

@Suite("BuildManifest: what a build can open, and its body")
struct BuildManifestTests {
    private let manifest = BuildManifest(
        viewControllers: ["HomeViewController", "Shop.ShopViewController"], nibs: ["HomeView"],
        storyboards: ["Search"], urlSchemes: ["MyApp"])

    @Test("Destinations a build can open: its classes (with their nib), storyboards, http(s) and its schemes")
    func openable() {
        #expect(manifest.missing(Destination(type: .viewController, name: "HomeViewController")) == nil)
        #expect(manifest.missing(Destination(type: .viewController, name: "HomeViewController", nib: "HomeView")) == nil)
        #expect(manifest.missing(Destination(type: .storyboard, name: "Search", identifier: "Root")) == nil)
        #expect(manifest.missing(Destination(type: .url, url: "https://example.com/help")) == nil)
        #expect(manifest.missing(Destination(type: .url, url: "HTTP://example.com")) == nil)
        #expect(manifest.missing(Destination(type: .url, url: "myapp://orders")) == nil)

        let shop = manifest.missing(Destination(type: .viewController, name: "ShopViewController"))
        #expect(shop?.reason == "has no viewController ShopViewController")
        #expect(shop?.pointer == "/name")
        let nib = manifest.missing(Destination(type: .viewController, name: "HomeViewController", nib: "Other"))
        #expect(nib?.reason == "has no nib Other")
        #expect(nib?.pointer == "/nib")
        #expect(manifest.missing(Destination(type: .storyboard, name: "Main"))?.reason == "has no storyboard Main")
        #expect(manifest.missing(Destination(type: .url, url: "other://x"))?.reason == "opens no other: URLs")
    }

    @Test("A valid body decodes; schemes are lowercased and names counted")
    func decodes() throws {
        let body = Data(
            #"{"buildNumber": "1234", "viewControllers": ["HomeViewController"], "nibs": ["HomeView"], "storyboards": ["Main Menu"], "urlSchemes": ["MyApp+x"]}"#
                .utf8)
        let decoded = try BuildManifest.decode(json: body).get()
        #expect(decoded.buildNumber == "1234")
        #expect(decoded.urlSchemes == ["myapp+x"])
        #expect(decoded.nameCount == 4)
        #expect(try BuildManifest.decode(json: Data("{}".utf8)).get() == BuildManifest())
    }

    @Test("Each bad name, wrong type and unknown member is a problem with its pointer", arguments: [
        (#"{"viewControllers": ["Home", "9Shop"]}"#, ["/viewControllers/1"]),
        (#"{"viewControllers": "Home"}"#, ["/viewControllers"]),
        (#"{"nibs": ["a/b", 3]}"#, ["/nibs/0", "/nibs/1"]),
        (#"{"storyboards": [""]}"#, ["/storyboards/0"]),
        (#"{"urlSchemes": ["my app"]}"#, ["/urlSchemes/0"]),
        (#"{"buildNumber": 12}"#, ["/buildNumber"]),
        (#"{"extra": true}"#, ["/extra"]),
        (#"[]"#, [""]),
    ])
    func problems(body: String, pointers: [String]) {
        guard case .failure(.invalid(let problems)) = BuildManifest.decode(json: Data(body.utf8)) else {
            Issue.record("\(body) is not a valid manifest")
            return
        }
        #expect(problems.map(\.pointer) == pointers)
    }

    @Test("More than 10,000 names in all is a problem; 10,000 is not")
    func tooManyNames() throws {
        func body(_ count: Int) -> Data {
            let names = (0..<count).map { #""C\#($0)""# }.joined(separator: ",")
            return Data(#"{"viewControllers": [\#(names)]}"#.utf8)
        }
        #expect(try BuildManifest.decode(json: body(10_000)).get().nameCount == 10_000)
        guard case .failure(.invalid(let problems)) = BuildManifest.decode(json: body(10_001)) else {
            Issue.record("10,001 names decoded")
            return
        }
        #expect(problems.map(\.pointer) == [""])
    }

    @Test("Bytes that are not JSON are malformed")
    func malformed() {
        guard case .failure(.malformedJSON) = BuildManifest.decode(json: Data([0x7B, 0xFF, 0x7D])) else {
            Issue.record("not JSON")
            return
        }
    }
}

@Suite("BuildAbsence: tabs a build cannot open are absent, as targeted-away tabs are")
struct BuildAbsenceTests {
    /// home, shop (ShopViewController) with a child, search (a storyboard), and a template of ShopViewController.
    private let config = TabBarConfig(
        tabs: [
            Tab.make("home"),
            Tab(
                id: "shop", title: LocalizedTitle(default: "Shop"),
                destination: Destination(type: .viewController, name: "ShopViewController"),
                children: [Tab.make("deals")]),
            Tab(
                id: "search", title: LocalizedTitle(default: "Search"),
                destination: Destination(type: .storyboard, name: "Search")),
        ],
        initialTab: "shop", userCustomizable: true,
        tabTemplates: [
            TabTemplate(
                id: "store", title: LocalizedTitle(default: "Store"),
                destination: Destination(type: .viewController, name: "ShopViewController"))
        ])
    private let old = BuildManifest(viewControllers: ["ViewController"], storyboards: ["Search"])
    private let new = BuildManifest(
        viewControllers: ["ViewController", "ShopViewController"], storyboards: ["Search"])

    @Test("A build without the class lacks the tab, its children and the template's tabs, each with its pointer")
    func absence() {
        let absence = BuildAbsence(config: config, manifest: old)
        #expect(absence.tabs.map(\.id) == ["shop"])
        #expect(absence.tabs.first?.pointer == "/tabs/1/destination/name")
        #expect(absence.tabs.first?.reason == "has no viewController ShopViewController")
        #expect(absence.absentIDs == ["shop", "deals"])
        #expect(absence.templates.map(\.pointer) == ["/tabTemplates/0/destination/name"])
        #expect(absence.absentTemplates == ["store"])
        #expect(absence.key == ".b16")
        #expect(BuildAbsence(config: config, manifest: new).isEmpty)
    }

    @Test("The build's tab bar lacks the tab, falls back from it as initial tab, and keys the outcome apart")
    func layout() {
        let outcome = TargetingOutcome.everything.excluding(BuildAbsence(config: config, manifest: old))
        #expect(outcome.key == ".b16")
        let tabBar = config.resolve(client: "app", version: 1, locale: "en", saved: nil, outcome: outcome)
        #expect(tabBar.tabs.map(\.id) == ["home", "search"])
        #expect(tabBar.initialTab == "home")
        let full = config.resolve(
            client: "app", version: 1, locale: "en", saved: nil,
            outcome: TargetingOutcome.everything.excluding(BuildAbsence(config: config, manifest: new)))
        #expect(full.tabs.map(\.id) == ["home", "shop", "search"])
    }

    @Test("A saved order with the tab and an open tab of its template: absent on the old build, not dropped")
    func savedOrderKeepsThePlace() {
        let opened = DynamicTab(template: "store", name: "outlet")
        let saved = SavedCustomization.saved(
            Customization(order: ["search", "shop", "store:outlet", "home"], dynamicTabs: [opened]), revision: 3)
        let oldOutcome = TargetingOutcome.everything.excluding(BuildAbsence(config: config, manifest: old))
        let onOld = config.resolve(client: "app", version: 1, locale: "en", saved: saved, outcome: oldOutcome)
        #expect(onOld.tabs.map(\.id) == ["search", "home"])
        #expect(onOld.customization?.dropped == [])
        let onNew = config.resolve(client: "app", version: 1, locale: "en", saved: saved)
        #expect(onNew.tabs.map(\.id) == ["search", "shop", "store:outlet", "home"])
    }
}

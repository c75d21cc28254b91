import Foundation
import TabBarModel
import Testing

@Suite("ApplicationHierarchy.plist import")
struct ApplicationHierarchyImportTests {
    /// The config the five-tab fixture must import to.
    static let expectedFixtureConfig = TabBarConfig(
        tabs: [
            ("home", "Home", "HomeViewController"),
            ("search", "Search", "SearchViewController"),
            ("library", "Library", "LibraryViewController"),
            ("favorites", "Favorites", "FavoritesViewController"),
            ("settings", "Settings", "SettingsViewController"),
        ].map { id, title, controller in
            Tab(
                id: id,
                title: LocalizedTitle(key: title, default: title),
                icon: Icon(image: "tabbar_\(id).png"),
                destination: Destination(type: .viewController, name: controller, embedInNavigationController: true)
            )
        }
    )

    static let knownKeys = "RootViewController, TabBarImage, TabBarSelectedImage, TabBarTitle"

    /// A plist of `entries`, serialized by Foundation.
    static func plist(
        _ entries: [[String: Any]],
        format: PropertyListSerialization.PropertyListFormat = .xml
    ) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: entries, format: format, options: 0)
    }

    /// A well-formed entry for `controller`.
    static func entry(_ controller: String, title: String = "Title") -> [String: Any] {
        ["TabBarTitle": title, "TabBarImage": "image.png", "RootViewController": controller]
    }

    static func problems(_ data: Data) -> [ValidationProblem] {
        switch TabBarConfig.importApplicationHierarchy(data) {
        case .success:
            Issue.record("unexpected success")
            return []
        case .failure(.invalid(let problems)):
            return problems
        case .failure(.malformed(let message)):
            Issue.record("unexpected malformed: \(message)")
            return []
        }
    }

    static func malformedMessage(_ data: Data) -> String? {
        if case .failure(.malformed(let message)) = TabBarConfig.importApplicationHierarchy(data) {
            return message
        }
        return nil
    }

    // MARK: - Fixtures

    @Test func xmlFixtureImports() throws {
        let data = try Fixture.data("ApplicationHierarchy.plist")
        let config = try TabBarConfig.importApplicationHierarchy(data).get()
        #expect(config == Self.expectedFixtureConfig)
        #expect(config.validate().isEmpty)
        #expect(config.effectiveInitialTab == "home")
    }

    @Test func binaryFixtureImportsToTheSameConfig() throws {
        let data = try Fixture.data("ApplicationHierarchy.binary.plist")
        #expect(data.starts(with: Data("bplist00".utf8)))
        let config = try TabBarConfig.importApplicationHierarchy(data).get()
        #expect(config == Self.expectedFixtureConfig)
        #expect(config.validate().isEmpty)
    }

    @Test func importedConfigSurvivesTheStrictJSONDecoder() throws {
        let config = try TabBarConfig.importApplicationHierarchy(Fixture.data("ApplicationHierarchy.plist")).get()
        #expect(try TabBarConfig.decode(json: config.encoded()).get() == config)
    }

    @Test func unknownKeyFixtureListsEveryProblem() throws {
        let problems = Self.problems(try Fixture.data("ApplicationHierarchy.unknown-key.plist"))
        #expect(problems.map(\.pointer) == ["/0/TabBarBadge", "/2/RootViewController"])
        #expect(problems[0].message.contains("unknown key \"TabBarBadge\""))
        #expect(problems[1].message == "is required")
    }

    // MARK: - Malformed

    @Test(arguments: ["not a plist", "", "{\"tabs\": []}", "<plist version=\"1.0\"><array><dict><key>A</key></dict>"])
    func bytesThatAreNoPropertyListAreMalformed(_ text: String) throws {
        let message = try #require(Self.malformedMessage(Data(text.utf8)))
        #expect(message.hasPrefix("not a property list"))
    }

    @Test func openStepTextIsMalformed() throws {
        let message = try #require(Self.malformedMessage(Data("(a, b)".utf8)))
        #expect(message.contains("OpenStep"))
    }

    @Test func topLevelDictionaryIsMalformed() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["TabBarTitle": "Home"],
            format: .xml,
            options: 0
        )
        let message = try #require(Self.malformedMessage(data))
        #expect(message == "the top level must be an array of dictionaries, found a dictionary")
    }

    @Test func topLevelStringIsMalformed() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: "Home", format: .binary, options: 0)
        #expect(Self.malformedMessage(data) == "the top level must be an array of dictionaries, found a string")
    }

    // MARK: - Entries

    @Test func everyEntryProblemHasAPointerIntoTheArray() throws {
        let data = try Self.plist([
            ["TabBarTitle": 7, "TabBarImage": "", "RootViewController": ["Home"]],
            ["TabBarImage": "b.png", "RootViewController": "BViewController", "Badge": "1", "Color": true],
            Self.entry("CViewController"),
        ])
        let problems = Self.problems(data)
        #expect(
            problems == [
                ValidationProblem(pointer: "/0/TabBarTitle", message: "expected a string, found a number"),
                ValidationProblem(pointer: "/0/TabBarImage", message: "must not be empty"),
                ValidationProblem(pointer: "/0/RootViewController", message: "expected a string, found an array"),
                ValidationProblem(pointer: "/1/TabBarTitle", message: "is required"),
                ValidationProblem(
                    pointer: "/1/Badge",
                    message: "unknown key \"Badge\" (known keys: \(Self.knownKeys))"
                ),
                ValidationProblem(
                    pointer: "/1/Color",
                    message: "unknown key \"Color\" (known keys: \(Self.knownKeys))"
                ),
            ]
        )
    }

    @Test func entryThatIsNotADictionaryIsOneProblem() throws {
        let entries: [Any] = [Self.entry("AViewController"), "BViewController", Self.entry("CViewController")]
        let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
        let problems = Self.problems(data)
        #expect(problems.map(\.pointer) == ["/1"])
        #expect(problems.first?.message.hasSuffix("found a string") == true)
    }

    @Test func unknownKeyIsReportedEvenWhenEverythingElseIsValid() throws {
        var first = Self.entry("HomeViewController")
        first["TabBarBadge"] = "3"
        let problems = Self.problems(try Self.plist([first, Self.entry("SearchViewController")]))
        #expect(problems.map(\.pointer) == ["/0/TabBarBadge"])
    }

    @Test func selectedImageMapsToTheIcon() throws {
        var first = Self.entry("HomeViewController")
        first["TabBarSelectedImage"] = "tabbar_home_selected.png"
        let config = try TabBarConfig.importApplicationHierarchy(
            Self.plist([first, Self.entry("SearchViewController")])
        ).get()
        #expect(config.tabs[0].icon == Icon(image: "image.png", selectedImage: "tabbar_home_selected.png"))
        #expect(config.tabs[1].icon == Icon(image: "image.png"))
    }

    @Test func localizationKeyIsTitleKeyAndDefault() throws {
        let config = try TabBarConfig.importApplicationHierarchy(
            Self.plist([Self.entry("HomeViewController", title: "HOME_TAB"), Self.entry("SearchViewController")])
        ).get()
        #expect(config.tabs[0].title == LocalizedTitle(key: "HOME_TAB", default: "HOME_TAB"))
    }

    @Test func foundationBinaryPlistImportsLikeXML() throws {
        let entries = [Self.entry("HomeViewController"), Self.entry("MyFavoritesViewController")]
        let xml = try TabBarConfig.importApplicationHierarchy(Self.plist(entries, format: .xml)).get()
        let binary = try TabBarConfig.importApplicationHierarchy(Self.plist(entries, format: .binary)).get()
        #expect(xml == binary)
        #expect(binary.tabs.map(\.id) == ["home", "my-favorites"])
    }

    // MARK: - Ids

    @Test func duplicateControllerNamesGetNumberedIDs() throws {
        let entries = ["HomeViewController", "HomeViewController", "HomeController", "Home_2ViewController"]
            .map { Self.entry($0) }
        let config = try TabBarConfig.importApplicationHierarchy(Self.plist(entries)).get()
        #expect(config.tabs.map(\.id) == ["home", "home-2", "home-3", "home-2-2"])
        #expect(config.validate().isEmpty)
    }

    @Test func longControllerNamesGiveValidDistinctIDs() throws {
        let name = String(repeating: "Very", count: 30) + "LongViewController"
        let config = try TabBarConfig.importApplicationHierarchy(Self.plist([Self.entry(name), Self.entry(name)])).get()
        #expect(config.tabs.allSatisfy { Tab.isValidID($0.id) })
        #expect(config.tabs[1].id.hasSuffix("-2"))
        #expect(config.tabs[0].id != config.tabs[1].id)
    }

    // MARK: - Generated document

    @Test func tooFewEntriesFailTheNormalValidation() throws {
        let problems = Self.problems(try Self.plist([Self.entry("HomeViewController")]))
        #expect(
            problems == [
                ValidationProblem(
                    pointer: "/tabs",
                    message: "in the generated document (from the top-level array): must have 2…50 tabs, has 1"
                )
            ]
        )
    }

    @Test func tooManyEntriesFailTheNormalValidation() throws {
        let entries = (1...51).map { Self.entry("Screen\($0)ViewController") }
        let problems = Self.problems(try Self.plist(entries))
        #expect(problems.map(\.pointer) == ["/tabs"])
        #expect(problems.first?.message.hasSuffix("must have 2…50 tabs, has 51") == true)
    }

    @Test func documentProblemsNameThePlistKeyTheyComeFrom() throws {
        let longTitle = String(repeating: "t", count: 65)
        let longImage = String(repeating: "i", count: 257)
        var second = Self.entry("SearchViewController")
        second["TabBarImage"] = longImage
        second["TabBarSelectedImage"] = longImage
        let problems = Self.problems(try Self.plist([Self.entry("HomeViewController", title: longTitle), second]))
        #expect(
            problems == [
                ValidationProblem(
                    pointer: "/tabs/0/title/default",
                    message: "in the generated document (from /0/TabBarTitle): must be 1…64 characters, has 65"
                ),
                ValidationProblem(
                    pointer: "/tabs/1/icon/image",
                    message: "in the generated document (from /1/TabBarImage): must be at most 256 characters, has 257"
                ),
                ValidationProblem(
                    pointer: "/tabs/1/icon/selectedImage",
                    message: "in the generated document (from /1/TabBarSelectedImage): "
                        + "must be at most 256 characters, has 257"
                ),
            ]
        )
    }

    @Test func longControllerNameIsADocumentProblemOfTheControllerKey() throws {
        let name = String(repeating: "A", count: 257)
        let problems = Self.problems(try Self.plist([Self.entry(name), Self.entry("SearchViewController")]))
        #expect(problems.map(\.pointer) == ["/tabs/0/destination/name"])
        #expect(problems.first?.message.hasPrefix("in the generated document (from /0/RootViewController):") == true)
    }

    @Test func entryProblemsAndDocumentProblemsAreReportedTogether() throws {
        let problems = Self.problems(
            try Self.plist([
                ["TabBarImage": "a.png", "RootViewController": "AViewController"],
                Self.entry("BViewController", title: String(repeating: "b", count: 70)),
            ])
        )
        #expect(problems.map(\.pointer) == ["/0/TabBarTitle", "/tabs/1/title/default"])
    }
}

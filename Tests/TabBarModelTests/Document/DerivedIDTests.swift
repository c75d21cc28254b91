import TabBarModel
import Testing

@Suite("Tab ids derived from controller names")
struct DerivedIDTests {
    @Test(arguments: [
        ("HomeViewController", "home"),
        ("MyFavoritesViewController", "my-favorites"),
        ("UIViewController", "ui"),
        ("SettingsController", "settings"),
        ("Search", "search"),
        ("URLListViewController", "url-list"),
        ("MP3PlayerViewController", "mp3-player"),
        ("Top10ViewController", "top10"),
        ("MyApp.HomeViewController", "my-app-home"),
        ("news_feed__ViewController", "news-feed"),
        ("ÉcranViewController", "cran"),
        ("ViewController", "tab"),
        ("Controller", "tab"),
        ("", "tab"),
        ("_$", "tab"),
        ("ViewControllerHome", "view-controller-home"),
    ])
    func derivesFromTheControllerName(_ name: String, _ expected: String) {
        #expect(Tab.derivedID(fromControllerName: name) == expected)
    }

    @Test func duplicatesGetTheNextFreeNumber() {
        #expect(Tab.derivedID(fromControllerName: "HomeViewController", avoiding: ["home"]) == "home-2")
        #expect(Tab.derivedID(fromControllerName: "HomeViewController", avoiding: ["home", "home-2"]) == "home-3")
        #expect(Tab.derivedID(fromControllerName: "HomeViewController", avoiding: ["home-2"]) == "home")
        #expect(Tab.derivedID(fromControllerName: "Controller", avoiding: ["tab"]) == "tab-2")
    }

    @Test func longNamesAreCutTo64Characters() {
        let name = String(repeating: "Abcd", count: 40) + "ViewController"
        let id = Tab.derivedID(fromControllerName: name)
        #expect(id.count == 64)
        #expect(Tab.isValidID(id))
        let second = Tab.derivedID(fromControllerName: name, avoiding: [id])
        #expect(second.count <= 64)
        #expect(second.hasSuffix("-2"))
        #expect(Tab.isValidID(second))
    }

    @Test func cutNeverEndsOnAHyphen() {
        let name = String(repeating: "a", count: 63) + "Bcd"
        let id = Tab.derivedID(fromControllerName: name)
        #expect(id == String(repeating: "a", count: 63))
        #expect(Tab.derivedID(fromControllerName: name, avoiding: [id]) == String(repeating: "a", count: 62) + "-2")
    }
}

import Foundation
import TabBarModel
import Testing

@Suite("Embedded sample")
struct SampleTests {
    @Test func sampleIsValid() {
        #expect(TabBarConfig.sample.validate() == [])
    }

    @Test func sampleHasTheDocumentedShape() throws {
        let sample = TabBarConfig.sample
        #expect(
            sample.tabs.map(\.id) == ["home", "search", "library", "favorites", "profile", "settings", "downloads"]
        )
        #expect(sample.maxVisibleTabs == 5)
        #expect(sample.initialTab == "home")
        #expect(sample.isUserCustomizable)
        #expect(sample.effectiveDefaultLocale == "en")
        #expect(sample.availableLocales == ["en", "fr", "de"])
        let home = sample.tabs[0]
        #expect(home.locked == true && home.hideable == false)
        #expect(
            home.destination
                == Destination(type: .viewController, name: "HomeViewController", embedInNavigationController: true)
        )
        #expect(home.icon == Icon(image: "tabbar_home.png", selectedImage: "tabbar_home_selected.png"))
        #expect(home.title.key == "HOME_TAB")
        #expect(sample.tabs[1].destination.type == .storyboard)
        #expect(sample.tabs[3].badge == "3")
        let downloads = try #require(sample.tabs.last)
        #expect(downloads.hideable == true)
        #expect(downloads.destination.url == "https://example.com/downloads")
        #expect(downloads.destination.parameters == ["source": "tab"])
        for tab in sample.tabs {
            #expect(tab.title.localized?.keys.sorted() == ["de", "fr"])
        }
        #expect(sample.appearance?.tintColor == "#0A84FF")
    }

    @Test func encodedIsCanonicalAndDecodesBack() throws {
        let data = TabBarConfig.sample.encoded()
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"url\":\"https://example.com/downloads\""))
        #expect(!text.contains("null"))
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("{\"appearance\":"))
        #expect(try TabBarConfig.decode(json: data).get() == TabBarConfig.sample)
        #expect(try JSONDecoder().decode(TabBarConfig.self, from: data) == TabBarConfig.sample)
        #expect(TabBarConfig.sample.encoded() == data)
    }
}

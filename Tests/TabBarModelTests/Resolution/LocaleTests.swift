import TabBarModel
import Testing

@Suite("Locale resolution")
struct LocaleTests {
    /// Tags en (default), fr, de, de-CH, pt-BR.
    static let config: TabBarConfig = {
        var config = TabBarConfig.make(["a", "b"])
        config.tabs[0].title.localized = ["fr": "A-fr", "de": "A-de", "de-CH": "A-ch"]
        config.tabs[1].children = [.make("c", localized: ["pt-BR": "C-br"])]
        return config
    }()

    @Test func availableLocalesCoverTheWholeHierarchy() {
        #expect(Self.config.availableLocales == ["en", "fr", "de", "de-CH", "pt-BR"])
    }

    @Test func queryExactTagIgnoringCase() {
        #expect(Self.config.resolveLocale(query: "DE-ch", acceptLanguage: nil) == ("de-CH", false))
        #expect(Self.config.resolveLocale(query: "fr", acceptLanguage: "de") == ("fr", false))
    }

    @Test func queryLanguageOnly() {
        #expect(Self.config.resolveLocale(query: "de-AT", acceptLanguage: nil) == ("de", false))
        #expect(Self.config.resolveLocale(query: "fr-CA", acceptLanguage: "de") == ("fr", false))
    }

    @Test func queryWithoutMatchFallsBackToDefaultNotHeader() {
        #expect(Self.config.resolveLocale(query: "ja", acceptLanguage: "fr") == ("en", false))
        #expect(Self.config.resolveLocale(query: "pt", acceptLanguage: nil) == ("en", false))
    }

    @Test func acceptLanguageHonoursQValues() {
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "ja, de;q=0.5, fr;q=0.8") == ("fr", true))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "de;q=0.5,fr;q=0.5") == ("de", true))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "fr;q=0, de;q=0.1") == ("de", true))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "fr ; Q=0.2 , pt-br ; q=0.9") == ("pt-BR", true))
    }

    @Test func acceptLanguageExactThenLanguageOnlyPerRange() {
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "de-ch") == ("de-CH", true))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "fr-CA, de-CH;q=0.9") == ("fr", true))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "en-GB, fr") == ("en", true))
    }

    @Test func acceptLanguageFallsBackToDefault() {
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: nil) == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "ja, ko;q=0.5") == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "*") == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "fr;q=0") == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "fr;q=abc") == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: "") == ("en", false))
        #expect(Self.config.resolveLocale(query: nil, acceptLanguage: ",;,q=1;") == ("en", false))
    }

    @Test func defaultLocaleOfTheDocumentIsUsed() {
        var config = Self.config
        config.defaultLocale = "fr"
        #expect(config.resolveLocale(query: nil, acceptLanguage: "ja") == ("fr", false))
        #expect(config.availableLocales.contains("fr"))
        #expect(!config.availableLocales.contains("en"))
    }

    @Test func titleForLocale() {
        let title = LocalizedTitle(default: "Home", localized: ["fr": "Accueil", "de-CH": "Start"])
        #expect(title.text(for: "fr") == "Accueil")
        #expect(title.text(for: "FR-ca") == "Accueil")
        #expect(title.text(for: "de-ch") == "Start")
        #expect(title.text(for: "de") == "Home")
        #expect(title.text(for: "en") == "Home")
        #expect(LocalizedTitle(default: "Home").text(for: "fr") == "Home")
    }

    @Test func wellFormedTags() {
        for tag in ["en", "fr", "de-CH", "zh-Hant-TW", "es-419", "EN-us", "sr-Latn-RS-1901", "ast"] {
            #expect(isValidLocaleTag(tag), "\(tag)")
        }
        for tag in [
            "", "e", "english", "en_US", "en-", "-en", "en--US", "1en", "en-abcdefghi", "fr CH", "ü",
            String(repeating: "en-x", count: 20),
        ] {
            #expect(!isValidLocaleTag(tag), "\(tag)")
        }
    }

    @Test func tagCheckAgreesWithTheSubtagRules() {
        func reference(_ tag: String) -> Bool {
            guard !tag.isEmpty, tag.utf8.count <= 64 else { return false }
            let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
            guard let language = subtags.first, (2...3).contains(language.count),
                language.allSatisfy({ $0.isASCII && $0.isLetter })
            else { return false }
            return subtags.dropFirst().allSatisfy { subtag in
                (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }
        }
        let alphabet = Array("aZq9-0_é ")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...14, using: &generator)
            let tag = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(isValidLocaleTag(tag) == reference(tag), "\(tag)")
        }
    }

    @Test func localeIndexMatchesTheSmallestCaseVariant() {
        let index = LocaleIndex(["de-ch", "en", "de-CH", "pt-BR"])
        #expect(index.match("DE-CH") == "de-CH")
        #expect(index.match("de-ch") == "de-CH")
        #expect(index.match("de-CH") == "de-CH")
        #expect(index.match("en") == "en")
        #expect(index.match("EN") == "en")
        #expect(index.match("pt-br") == "pt-BR")
        #expect(index.match("fr") == nil)
    }
}

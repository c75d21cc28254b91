import Testing

@testable import TabBarModel

@Suite("Request context from the query")
struct RequestContextTests {
    static func parse(_ items: [(String, String)], country: String? = nil) -> Result<RequestContext, ContextProblem> {
        RequestContext.parse(query: items.map { (name: $0.0, value: $0.1) }, trustedCountry: country)
    }

    @Test("every parameter is read; the country is upper-cased; other parameters are not part of it")
    func reads() throws {
        let context = try Self.parse([
            ("platform", "ios"), ("appVersion", "5.2.0-beta.1"), ("osVersion", "17.4.1"), ("country", "fr"),
            ("deviceId", "3F2504E0-4F89"), ("attr.tier", "gold"), ("attr.Cohort_2", "été"), ("locale", "fr"),
            ("user", "x"),
        ]).get()
        #expect(context.platform == "ios")
        #expect(context.appVersion == "5.2.0-beta.1")
        #expect(context.osVersion == "17.4.1")
        #expect(context.country == "FR")
        #expect(context.deviceId == "3F2504E0-4F89")
        #expect(context.custom == ["tier": "gold", "Cohort_2": "été"])
        #expect(context.locale == nil)
        #expect(context.attributes == JSONValue.object([
            JSONMember(key: "platform", value: .string("ios")),
            JSONMember(key: "appVersion", value: .string("5.2.0-beta.1")),
            JSONMember(key: "osVersion", value: .string("17.4.1")),
            JSONMember(key: "country", value: .string("FR")),
            JSONMember(key: "deviceId", value: .string("3F2504E0-4F89")),
            JSONMember(key: "attr", value: .object([
                JSONMember(key: "Cohort_2", value: .string("été")), JSONMember(key: "tier", value: .string("gold")),
            ])),
        ]))
    }

    @Test(
        "a malformed, repeated or oversized parameter is a problem naming it",
        arguments: [
            ([("appVersion", "5..2")], "appVersion"), ([("appVersion", "abc")], "appVersion"),
            ([("appVersion", "")], "appVersion"), ([("osVersion", String(repeating: "1.", count: 40) + "1")], "osVersion"),
            ([("platform", "i os")], "platform"), ([("platform", String(repeating: "x", count: 33))], "platform"),
            ([("country", "FRA")], "country"), ([("country", "F1")], "country"),
            ([("deviceId", "a b")], "deviceId"), ([("platform", "ios"), ("platform", "android")], "platform"),
            ([("attr.1x", "v")], "attr.1x"), ([("attr.", "v")], "attr."),
            ([("attr.tier", String(repeating: "é", count: 257))], "attr.tier"),
            ([("attr.tier", "a\u{FFFD}b")], "attr.tier"), ([("attr.tier", "a\nb")], "attr.tier"),
        ] as [([(String, String)], String)])
    func problems(items: [(String, String)], parameter: String) {
        guard case .failure(let problem) = Self.parse(items) else {
            Issue.record("\(items) was accepted")
            return
        }
        #expect(problem.parameter == parameter)
    }

    @Test("at most 16 custom attributes")
    func customLimit() {
        let sixteen = (0..<16).map { ("attr.a\($0)", "v") }
        #expect((try? Self.parse(sixteen).get())?.custom.count == 16)
        guard case .failure(let problem) = Self.parse(sixteen + [("attr.b", "v")]) else {
            Issue.record("17 attributes were accepted")
            return
        }
        #expect(problem.parameter == "attr.b")
    }

    @Test("the trusted country header wins over the query when it holds a country code")
    func trustedCountry() throws {
        #expect(try Self.parse([("country", "FR")], country: "de").get().country == "DE")
        #expect(try Self.parse([("country", "FR")], country: "unknown").get().country == "FR")
        #expect(try Self.parse([], country: "US").get().country == "US")
    }

    @Test("the locale sets the language; hash values are the user, the device or a custom attribute")
    func derived() {
        var context = RequestContext(deviceId: "d", custom: ["tier": "gold"], userId: "u")
        context.setLocale("de-CH")
        #expect(context.language == "de")
        #expect(context.hashValue(of: "userId") == "u")
        #expect(context.hashValue(of: "deviceId") == "d")
        #expect(context.hashValue(of: "attr.tier") == "gold")
        #expect(context.hashValue(of: "attr.other") == nil)
        #expect(context.hashValue(of: "platform") == nil)
    }
}

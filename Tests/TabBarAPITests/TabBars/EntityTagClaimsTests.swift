import Testing
@testable import TabBarAPI

@Suite("What entity tags name, for reading through")
struct EntityTagClaimsTests {
    private func claims(_ headers: String...) -> EntityTag.Claims {
        var claims = EntityTag.Claims()
        headers.forEach { claims.add($0) }
        return claims
    }

    @Test("every tag the API makes is read back: the version, and the revision with its user")
    func roundTrip() {
        let tags = [
            EntityTag.defaultTabs(version: 7, locale: "en-GB"),
            EntityTag.defaultTabs(version: 8, locale: "de", outcome: ".e1-b.a3"),
            EntityTag.config(version: 9),
            EntityTag.userTabs(version: 4, locale: "pt-BR", outcome: ".x-y", revision: 12, user: "a-b.c@d"),
            EntityTag.tabOrder(revision: 30, user: "zed"),
            EntityTag.tabOrder(revision: 5, user: "a-b.c@d"),
        ]
        let read = claims(tags.joined(separator: ", "))
        #expect(read.version == 9)
        #expect(read.revisions == ["a-b.c@d": 12, "zed": 30])
    }

    @Test("an OFREP bulk evaluation's tags are read back as the tab bars' they are made from")
    func flagsTags() {
        let user = EntityTag.flags(tabBar: EntityTag.userTabs(version: 4, locale: "en", revision: 12, user: "zed"))
        let read = claims(user + ", " + EntityTag.flags(tabBar: EntityTag.defaultTabs(version: 11, locale: "fr")))
        #expect(read.version == 11)
        #expect(read.revisions == ["zed": 12])
        let build = EntityTag.flags(
            tabBar: EntityTag.userTabs(version: 13, locale: "en", revision: 14, user: "ann"), forBuild: true)
        #expect(build.hasPrefix("\"obu13"))
        #expect(claims(build).version == 13 && claims(build).revisions == ["ann": 14], "a build's tags too")
        #expect(claims("\"or3:zed\", \"oc9\", \"oo7\"").version == 0, "only a tab bar's tag follows the o")
        #expect(claims("\"or3:zed\"").revisions.isEmpty)
    }

    @Test("weak tags count, headers add up, and what the API never makes names nothing", arguments: [
        ("W/\"t3-en\"", 3, [:]),
        ("*", 0, [:]),
        ("\"\"", 0, [:]),
        ("\"x5\", t6, \"t\", \"r:u\", \"rx:u\", \"r4:\", \"u1-en-2\"", 1, [:]),
        ("\"r18446744073709551615:u\"", 0, ["u": UInt64.max]),
        ("\"t99999999999999999999999\"", 0, [:]),
    ] as [(String, Int, [String: UInt64])])
    func forms(header: String, version: Int, revisions: [String: UInt64]) {
        let read = claims(header)
        #expect(read.version == version)
        #expect(read.revisions == revisions)
    }

    @Test("If-None-Match and If-Match together: the highest of each")
    func twoHeaders() {
        let read = claims("\"c2\", \"r1:u\"", "\"c5\", \"r3:u\"")
        #expect(read.version == 5)
        #expect(read.revisions == ["u": 3])
    }
}

import Testing

@testable import TabConfigClient

@Suite("TabBar.applying: the tab bar as the user arranged it on the device")
struct TabBarApplyingTests {
    private typealias F = PresenterFixtures

    @Test("A tab bar's own state gives the same tabs")
    func ownState() {
        let tabBar = F.tabBar("abcdefg", locked: "c", hideable: "e")
        #expect(tabBar.applying(TabOrderState(tabBar)).tabs == tabBar.tabs)
    }

    @Test("Tabs follow the state's order; all in the bar when they fit in maxVisibleTabs")
    func fitsInBar() {
        let tabBar = F.tabBar("abcde")
        #expect(F.split(tabBar.applying(F.state("edcba"))) == "edcba|")
    }

    @Test("One tab more than maxVisibleTabs: the first maxVisibleTabs - 1 in the bar, the rest under More")
    func overflowsIntoMore() {
        let tabBar = F.tabBar("abcdef")
        #expect(F.split(tabBar.applying(F.state("fedcba"))) == "fedc|ba")
    }

    @Test("Hiding a tab at the boundary brings the bar back to maxVisibleTabs, without More")
    func hidingRemovesMore() {
        let tabBar = F.tabBar("abcdef", hideable: "b")
        let applied = tabBar.applying(F.state("fedca", hidden: "b"))
        #expect(F.split(applied) == "fedca|")
        #expect(applied.customization?.hidden == ["b"])
    }

    @Test("A locked tab keeps its index wherever the state puts it")
    func lockedKeepsIndex() {
        let tabBar = F.tabBar("abcdef", locked: "c")
        #expect(F.split(tabBar.applying(F.state("cfedba"))) == "fecd|ba")
    }

    @Test("A locked tab's slot moves down by the tabs before it that the state hides, as the service's does")
    func lockedAfterHidden() {
        let tabBar = F.tabBar("abcdefgh", locked: "d", hideable: "bf")
        #expect(F.split(tabBar.applying(F.state("hgfedcba", hidden: "bf"))) == "hgde|ca")
    }

    @Test("Tabs the state does not list keep their slot, like locked ones; the others fill the rest in order")
    func unlistedKeepSlot() {
        let tabBar = F.tabBar("abcdef")
        let applied = tabBar.applying(F.state("fedb"))
        #expect(F.split(applied) == "afce|db")
        #expect(applied.customization?.added == ["a", "c"])
    }

    @Test("Ids that are not tabs of the bar are ignored, a repeated id counts where it is first listed")
    func unknownAndRepeatedIDs() {
        let tabBar = F.tabBar("abcd")
        #expect(F.split(tabBar.applying(F.state("xdxcbadc"))) == "dcba|")
    }

    @Test("Hiding takes effect for hideable tabs only, locked ones included; others stay, as the service does")
    func hidingNeedsHideable() {
        let tabBar = F.tabBar("abcdef", locked: "a", hideable: "ae")
        let applied = tabBar.applying(F.state("fedcb", hidden: "cae"))
        #expect(F.split(applied) == "fdcb|")
        #expect(applied.customization?.hidden == ["a", "e"])
    }

    @Test("A tab the bar already hid stays hidden when the state hides it, and is left out when the state shows it")
    func alreadyHidden() {
        let tabBar = F.tabBar("abcd", hideable: "b", hidden: "x")
        #expect(tabBar.applying(F.state("abcd", hidden: "xb")).customization?.hidden == ["x", "b"])
        let shown = tabBar.applying(F.state("abcd"))
        #expect(shown.customization?.hidden == [])
        #expect(F.split(shown) == "abcd|")
    }

    @Test("The result's customization is the user's, with the bar's revision, nothing dropped or replaced")
    func customization() {
        var tabBar = F.tabBar("abc", hidden: "")
        tabBar.customization?.source = .default
        tabBar.customization?.dropped = ["old"]
        tabBar.customization?.replaced = ["old": "a"]
        let applied = tabBar.applying(F.state("cba"))
        #expect(applied.customization == TabBar.Customization(source: .user, revision: 3))
        let fromDefault = F.tabBar("abc").applying(F.state("cb"))
        #expect(fromDefault.customization == TabBar.Customization(source: .user, revision: 0, added: ["a"]))
    }

    @Test("A tab the user opened and the state does not list is not reported as added")
    func openedTabNotAdded() {
        var tabBar = F.tabBar("abc")
        tabBar.tabs[2].dynamic = TabBar.DynamicOrigin(template: "list", name: "c")
        #expect(tabBar.applying(F.state("b")).customization?.added == ["a"])
    }
}

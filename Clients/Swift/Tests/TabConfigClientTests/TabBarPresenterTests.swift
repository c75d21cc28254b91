import Testing

@testable import TabConfigClient

@Suite("TabBarPresenter: what the tab bar shows, and the user's changes as edits")
struct TabBarPresenterTests {
    private typealias F = PresenterFixtures

    private func letters(_ items: [TabBarPresenter.Item]) -> String {
        items.map(\.id).joined()
    }

    @Test("As many tabs as maxVisibleTabs all show in the bar, without More")
    func allInBar() {
        let presenter = TabBarPresenter(F.tabBar("abcde"))
        #expect(letters(presenter.barItems) == "abcde")
        #expect(presenter.moreItems.isEmpty)
        #expect(!presenter.showsMore)
    }

    @Test("One tab more than maxVisibleTabs: maxVisibleTabs - 1 in the bar, then More with the rest")
    func barAndMore() {
        let presenter = TabBarPresenter(F.tabBar("abcdef"))
        #expect(letters(presenter.barItems) == "abcd")
        #expect(letters(presenter.moreItems) == "ef")
        #expect(presenter.showsMore)
        #expect(letters(presenter.items) == "abcdef")
        #expect(presenter.items.map(\.isInMore) == [false, false, false, false, true, true])
    }

    @Test("Tabs without a placement are placed by the service's rule")
    func placementComputed() {
        var tabBar = F.tabBar("abcdef", maxVisibleTabs: 4)
        for index in tabBar.tabs.indices {
            tabBar.tabs[index].placement = nil
        }
        let presenter = TabBarPresenter(tabBar)
        #expect(letters(presenter.barItems) == "abc")
        #expect(letters(presenter.moreItems) == "def")
    }

    @Test("Each item gives its tab's id, title, icon names, badge, flags and destination")
    func itemProperties() throws {
        var tabBar = F.tabBar("abc", locked: "a", hideable: "b", disabled: "c")
        tabBar.tabs[1].icon = TabBar.Icon(image: "b.png", selectedImage: "b-selected.png")
        tabBar.tabs[1].badge = "3"
        tabBar.tabs[1].titleKey = "tab.b"
        let presenter = TabBarPresenter(tabBar)
        let item = try #require(presenter.item(id: "b"))
        #expect(item.id == "b")
        #expect(item.title == "Tab b")
        #expect(item.titleKey == "tab.b")
        #expect(item.imageName == "b.png")
        #expect(item.selectedImageName == "b-selected.png")
        #expect(item.badge == "3")
        #expect(item.destination == TabBar.Destination(type: .viewController, name: "bViewController"))
        #expect(item.isHideable && item.isEnabled && item.isCustomizable && !item.isLocked)
        #expect(presenter.items.map(\.isCustomizable) == [false, true, true])
        #expect(presenter.items.map(\.isLocked) == [true, false, false])
        #expect(presenter.items.map(\.isEnabled) == [true, true, false])
        #expect(presenter.item(id: "x") == nil)
    }

    @Test("The selection: the app's when it is an enabled item, else initialTab, else the first enabled item")
    func selection() {
        let tabBar = F.tabBar("abcdef", disabled: "ae", initialTab: "c")
        #expect(TabBarPresenter(tabBar).selectedID == "c")
        #expect(TabBarPresenter(tabBar, selecting: "f").selectedID == "f")
        #expect(TabBarPresenter(tabBar, selecting: "f").selectedIndex == 5)
        #expect(TabBarPresenter(tabBar, selecting: "e").selectedID == "c")
        #expect(TabBarPresenter(tabBar, selecting: "gone").selectedItem?.id == "c")
        #expect(TabBarPresenter(F.tabBar("abc", disabled: "a", initialTab: "a")).selectedID == "b")
        #expect(TabBarPresenter(F.tabBar("abc", initialTab: "gone")).selectedID == "a")
        let noneEnabled = TabBarPresenter(F.tabBar("ab", disabled: "ab"))
        #expect(noneEnabled.selectedID == nil && noneEnabled.selectedItem == nil && noneEnabled.selectedIndex == nil)
    }

    @Test("A reorder is the edit from the presented state to the order reported")
    func reorder() throws {
        let presenter = TabBarPresenter(F.tabBar("abcdef", hidden: "x"))
        let edit = try #require(presenter.edit(reorderedTo: F.ids("faebcd")))
        #expect(edit.base == F.state("abcdef", hidden: "x"))
        #expect(edit.edited == F.state("faebcd", hidden: "x"))
    }

    @Test("A reorder puts locked items back at their index")
    func reorderKeepsLocked() throws {
        let presenter = TabBarPresenter(F.tabBar("abcdef", locked: "ac"))
        let edit = try #require(presenter.edit(reorderedTo: F.ids("fedcba")))
        #expect(edit.edited.order == F.ids("afcedb"))
    }

    @Test("A reorder ignores unknown and repeated ids; items it does not list keep their index")
    func reorderPartial() throws {
        let presenter = TabBarPresenter(F.tabBar("abcdef"))
        let edit = try #require(presenter.edit(reorderedTo: F.ids("xfxdfb")))
        #expect(edit.edited.order == F.ids("afcdeb"))
    }

    @Test("A reorder that changes nothing, or only moves locked items, gives no edit")
    func reorderUnchanged() {
        let presenter = TabBarPresenter(F.tabBar("abcdef", locked: "b"))
        #expect(presenter.edit(reorderedTo: F.ids("abcdef")) == nil)
        #expect(presenter.edit(reorderedTo: F.ids("bacdef")) == nil)
        #expect(presenter.edit(reorderedTo: []) == nil)
    }

    @Test("Hiding is an edit for hideable items only")
    func hiding() throws {
        let presenter = TabBarPresenter(F.tabBar("abcd", hideable: "c", hidden: "x"))
        let edit = try #require(presenter.edit(hiding: "c"))
        #expect(edit.edited == F.state("abd", hidden: "xc"))
        #expect(presenter.edit(hiding: "b") == nil)
        #expect(presenter.edit(hiding: "x") == nil)
        #expect(presenter.edit(hiding: "gone") == nil)
    }

    @Test("Showing is an edit for hidden tabs only; the presented order stays")
    func showing() throws {
        let presenter = TabBarPresenter(F.tabBar("abcd", hidden: "xy"))
        #expect(presenter.hiddenIDs == ["x", "y"])
        let edit = try #require(presenter.edit(showing: "x"))
        #expect(edit.edited == F.state("abcd", hidden: "y"))
        #expect(presenter.edit(showing: "a") == nil)
    }

    @Test("Round trip: a reorder made, then applied to the tab bar, presents the new order and keeps the selection")
    func roundTrip() throws {
        let tabBar = F.tabBar("abcdefg", locked: "b", hideable: "f")
        let presenter = TabBarPresenter(tabBar, selecting: "g")
        let edit = try #require(presenter.edit(reorderedTo: F.ids("gbfedca")))
        let shown = TabBarPresenter(tabBar.applying(edit.applied(to: presenter.state)), selecting: "g")
        #expect(letters(shown.barItems) == "gbfe")
        #expect(letters(shown.moreItems) == "dca")
        #expect(shown.state == edit.edited)
        #expect(presenter.applying(edit) == shown)
        #expect(shown.selectedID == "g")

        let hide = try #require(shown.edit(hiding: "f"))
        let hidden = shown.applying(hide)
        #expect(letters(hidden.barItems) == "gbed")
        #expect(letters(hidden.moreItems) == "ca")
        #expect(hidden.hiddenIDs == ["f"])
        #expect(hidden.state == edit.followed(by: hide).edited)
    }
}

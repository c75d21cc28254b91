import Testing

@testable import TabConfigClient

@Suite("TabOrderEdit: a user's move made again on a newer order")
struct TabOrderEditTests {
    private func state(_ order: String, hidden: String = "") -> TabOrderState {
        TabOrderState(order: order.map(String.init), hidden: hidden.map(String.init))
    }

    @Test("On the state it was made on, the edit gives what the user left")
    func sameBase() {
        let edit = TabOrderEdit(base: state("abcde"), edited: state("dabce"))
        #expect(edit.applied(to: edit.base) == edit.edited)
    }

    @Test("Two devices' moves of different tabs both survive")
    func disjointMoves() {
        let base = state("abcde")
        let theirs = state("dabce")
        let mine = TabOrderEdit(base: base, edited: state("acdeb"))
        #expect(mine.applied(to: theirs) == state("daceb"))
    }

    @Test("A tab moved by both devices ends where this edit put it")
    func sameTabMoved() {
        let mine = TabOrderEdit(base: state("abcde"), edited: state("bcdea"))
        #expect(mine.applied(to: state("bacde")) == state("bcdea"))
    }

    @Test("A tab added meanwhile keeps the place the newer order gave it")
    func addedTab() {
        let mine = TabOrderEdit(base: state("abcd"), edited: state("dabc"))
        #expect(mine.applied(to: state("abxcd")) == state("dabxc"))
    }

    @Test("A moved tab whose predecessor is gone follows the nearest earlier tab that is still there")
    func anchorGone() {
        let mine = TabOrderEdit(base: state("abcde"), edited: state("abecd"))
        #expect(mine.applied(to: state("acd")) == state("aecd"))
    }

    @Test("Hiding and showing are made again; other hidden tabs stay as the newer state has them")
    func hiddenTabs() {
        let mine = TabOrderEdit(base: state("abcd", hidden: "e"), edited: state("abde", hidden: "c"))
        let theirs = state("bacd", hidden: "ef")
        #expect(mine.applied(to: theirs) == state("bade", hidden: "fc"))
    }

    @Test("The longest common subsequence of two orders")
    func longestCommonSubsequence() {
        #expect(TabOrderEdit.longestCommonSubsequence(Array("abcde").map(String.init), Array("dabce").map(String.init))
            == ["a", "b", "c", "e"])
        #expect(TabOrderEdit.longestCommonSubsequence([], ["a"]) == [])
    }
}

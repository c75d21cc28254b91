import TabConfigClient

/// Tab bars for the presenter's and `TabBar.applying`'s tests: one-letter tab ids, written as strings of them.
enum PresenterFixtures {
    /// The ids named by the letters of `letters`.
    static func ids(_ letters: String) -> [String] {
        letters.map(String.init)
    }

    /// A state whose order and hidden tabs are named by letters.
    static func state(_ order: String, hidden: String = "") -> TabOrderState {
        TabOrderState(order: ids(order), hidden: ids(hidden))
    }

    /// A tab bar of the tabs named by `letters`, in that order and placed as the service places them, with the
    /// given locked, hideable and disabled tabs. `hidden` (tabs the bar hid, not among `letters`) gives it the
    /// customization of a user's tab bar.
    static func tabBar(
        _ letters: String, locked: String = "", hideable: String = "", disabled: String = "", hidden: String? = nil,
        maxVisibleTabs: Int = 5, initialTab: String = "a"
    ) -> TabBar {
        let tabs = letters.enumerated().map { index, letter in
            TabBar.Tab(
                id: String(letter), title: "Tab \(letter)", icon: TabBar.Icon(image: "\(letter).png"),
                destination: TabBar.Destination(type: .viewController, name: "\(letter)ViewController"),
                enabled: !disabled.contains(letter), locked: locked.contains(letter),
                hideable: hideable.contains(letter),
                placement: letters.count <= maxVisibleTabs || index < maxVisibleTabs - 1 ? .bar : .more
            )
        }
        return TabBar(
            client: "ios-phone", version: 1, locale: "en", maxVisibleTabs: maxVisibleTabs, initialTab: initialTab,
            tabs: tabs,
            customization: hidden.map { TabBar.Customization(source: .user, revision: 3, hidden: ids($0)) }
        )
    }

    /// A tab bar's tab ids, those in the bar, then `|` and those under "More": `abcd|efg` for one-letter ids,
    /// `t0 t1|t2` with `separator` " ".
    static func split(_ tabBar: TabBar, separator: String = "") -> String {
        let bar = tabBar.tabs.filter { $0.placement == .bar }.map(\.id).joined(separator: separator)
        let more = tabBar.tabs.filter { $0.placement == .more }.map(\.id).joined(separator: separator)
        return "\(bar)|\(more)"
    }
}

import TabBarModel

extension TabBarConfig {
    /// A config of plain tabs with the given ids.
    static func make(_ ids: [String], maxVisibleTabs: Int? = nil) -> TabBarConfig {
        TabBarConfig(tabs: ids.map { Tab.make($0) }, maxVisibleTabs: maxVisibleTabs)
    }

    /// The same config with one tab changed.
    func modifying(tab index: Int, _ change: (inout Tab) -> Void) -> TabBarConfig {
        var copy = self
        change(&copy.tabs[index])
        return copy
    }

    /// Pointers of the problems `validate()` finds.
    var problemPointers: [String] {
        validate().map(\.pointer)
    }

    /// Ids of the resolved top-level tabs, in order.
    func resolvedIDs(_ saved: SavedCustomization?) -> [String] {
        resolve(client: "ios-phone", version: 1, locale: "en", saved: saved).tabs.map(\.id)
    }
}

extension TabBarPresenter {
    /// One top-level item of the tab bar: what a `UITabBarItem` and the tab's view controller need.
    public struct Item: Sendable, Hashable, Identifiable {
        /// The tab as the service answered it, for what the item does not repeat (children, deprecation, the
        /// template of a tab the user opened).
        public let tab: TabBar.Tab
        /// In the bar or under "More".
        public let placement: TabBar.Placement

        /// An item for `tab`, shown at `placement`.
        public init(tab: TabBar.Tab, placement: TabBar.Placement) {
            self.tab = tab
            self.placement = placement
        }

        /// The tab's stable id.
        public var id: String { tab.id }
        /// The title in the tab bar's locale.
        public var title: String { tab.title }
        /// The key of the title in the app's own strings, when the config names one.
        public var titleKey: String? { tab.titleKey }
        /// The name of the image the app bundles for the item, if any.
        public var imageName: String? { tab.icon?.image }
        /// The name of the image shown while the item is selected, when it differs from ``imageName``.
        public var selectedImageName: String? { tab.icon?.selectedImage }
        /// Badge text, if any.
        public var badge: String? { tab.badge }
        /// Whether the item can be selected.
        public var isEnabled: Bool { tab.enabled }
        /// Whether the item keeps its place: the user cannot move it.
        public var isLocked: Bool { tab.locked }
        /// Whether the user may hide the item.
        public var isHideable: Bool { tab.hideable }
        /// What the item opens.
        public var destination: TabBar.Destination { tab.destination }
        /// Whether the item shows under "More" rather than in the bar.
        public var isInMore: Bool { placement == .more }
        /// Whether the user may move the item: its view controller belongs in
        /// `UITabBarController.customizableViewControllers`.
        public var isCustomizable: Bool { !tab.locked }
    }
}

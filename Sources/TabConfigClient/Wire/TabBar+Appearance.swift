extension TabBar {
    /// Colours (`#RRGGBB` or `#RRGGBBAA`) and background image of the bar.
    public struct Appearance: Codable, Sendable, Hashable {
        /// The name of an image the app bundles, drawn behind the bar.
        public var backgroundImage: String?
        /// The bar's tint.
        public var tintColor: String?
        /// The tint of the selected item.
        public var selectedTintColor: String?
        /// The tint of the other items.
        public var unselectedTintColor: String?

        /// A value with the given members.
        public init(
            backgroundImage: String? = nil, tintColor: String? = nil, selectedTintColor: String? = nil,
            unselectedTintColor: String? = nil
        ) {
            self.backgroundImage = backgroundImage
            self.tintColor = tintColor
            self.selectedTintColor = selectedTintColor
            self.unselectedTintColor = unselectedTintColor
        }
    }
}

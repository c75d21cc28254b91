extension TabBar {
    /// Colours (`#RRGGBB` or `#RRGGBBAA`) and background image of the bar.
    public struct Appearance: Codable, Sendable, Hashable {
        public var backgroundImage: String?
        public var tintColor: String?
        public var selectedTintColor: String?
        public var unselectedTintColor: String?

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

extension TabBar {
    /// A tab's images, as names of images the app bundles.
    public struct Icon: Codable, Sendable, Hashable {
        /// The image shown normally.
        public var image: String
        /// The image shown while the tab is selected, if it differs.
        public var selectedImage: String?

        /// A value with the given members.
        public init(image: String, selectedImage: String? = nil) {
            self.image = image
            self.selectedImage = selectedImage
        }
    }
}

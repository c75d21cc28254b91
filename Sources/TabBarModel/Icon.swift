/// A tab's images, by name in the app bundle or asset catalog.
public struct Icon: Codable, Sendable, Hashable {
    /// The normal image.
    public var image: String
    /// The image when the tab is selected.
    public var selectedImage: String?

    /// Creates an icon.
    public init(image: String, selectedImage: String? = nil) {
        self.image = image
        self.selectedImage = selectedImage
    }
}

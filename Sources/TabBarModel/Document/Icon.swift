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

extension Icon {
    /// Decodes through the strict reader and the rules of an icon; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readIcon($1, at: "") }) { .icon($0) }
    }
}

/// The look of the tab bar; colours are `#RRGGBB` or `#RRGGBBAA`.
public struct Appearance: Codable, Sendable, Hashable {
    /// Background image name.
    public var backgroundImage: String?
    /// General tint colour.
    public var tintColor: String?
    /// Colour of the selected tab.
    public var selectedTintColor: String?
    /// Colour of unselected tabs.
    public var unselectedTintColor: String?

    /// Creates an appearance.
    public init(
        backgroundImage: String? = nil,
        tintColor: String? = nil,
        selectedTintColor: String? = nil,
        unselectedTintColor: String? = nil
    ) {
        self.backgroundImage = backgroundImage
        self.tintColor = tintColor
        self.selectedTintColor = selectedTintColor
        self.unselectedTintColor = unselectedTintColor
    }
}

extension Appearance {
    /// Decodes through the strict reader and the rules of an appearance; throws `ConfigDecodingError.invalid` with every
    /// problem, pointers from the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readAppearance($1, at: "") }) { .appearance($0) }
    }
}

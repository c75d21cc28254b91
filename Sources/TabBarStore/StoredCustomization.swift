import TabBarModel

/// One user's saved tab order, hidden tabs and open tabs, as the store keeps them: the model's value itself (its
/// `Codable` form, with `dynamicTabs` only when there are any, is what `JSONDecoder` reads outside the store's fast
/// path; `appendJSON` writes it).
public typealias StoredCustomization = Customization

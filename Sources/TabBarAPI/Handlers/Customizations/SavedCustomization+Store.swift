import TabBarModel
import TabBarStore

extension SavedCustomization {
    /// What the store holds for a user, in the model's terms.
    init(_ entry: CustomizationEntry?) {
        guard let entry else {
            self = .none
            return
        }
        guard let value = entry.value else {
            self = .undecodable(revision: entry.revision)
            return
        }
        self = .saved(value, revision: entry.revision)
    }
}

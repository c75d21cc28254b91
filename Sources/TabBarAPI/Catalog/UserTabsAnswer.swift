import MicroHTTP
import TabBarModel
import TabBarStore

/// A user's tab bar as far as it is known before the merge: its validators (for a `304`), the version's encoded
/// tab bar in the request's locale and what the user saved.
struct UserTabsAnswer {
    let validators: CacheValidators
    let encoded: EncodedTabBar
    let saved: SavedCustomization

    /// The `200`, merged and put together now.
    var response: Response {
        validators.jsonResponse(encoded.userBody(saved))
    }
}

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

/// Identifies one customization: a (client, user) pair.
struct CustomizationKey: Hashable, Sendable {
    var client: String
    var user: String
}

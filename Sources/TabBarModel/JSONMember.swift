/// One member of a JSON object.
struct JSONMember: Sendable, Hashable {
    var key: String
    var value: JSONValue
}

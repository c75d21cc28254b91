/// One member of a JSON object.
struct JSONMember: Sendable, Equatable {
    var key: String
    var value: JSONValue
}

/// A coding key for any object member: how a `JSONValue` object is decoded from and encoded to a coder.
struct JSONMemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// The members of a JSON object that passed the unknown- and duplicate-key checks, with its pointer.
struct JSONObject {
    /// Where the object is in the document.
    let pointer: String
    /// Members by key; for a duplicated key, the first occurrence.
    let members: [String: JSONValue]

    /// The member's value; a JSON `null` counts as absent.
    subscript(key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    /// The pointer of a member.
    func pointer(_ key: String) -> String {
        JSONPointer.appending(key, to: pointer)
    }
}

/// One member of a JSON object.
struct JSONMember: Sendable, Hashable {
    var key: String
    var value: JSONValue
}

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

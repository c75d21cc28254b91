extension JSONValue: Encodable {
    /// The value as JSON; object members in order (an encoder with sorted keys sorts them), duplicates as the
    /// encoder keeps them.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .double(let double):
            var single = encoder.singleValueContainer()
            try single.encode(double)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements {
                try array.encode(element)
            }
        case .object(let members):
            var object = encoder.container(keyedBy: JSONMemberKey.self)
            for member in members {
                try object.encode(member.value, forKey: JSONMemberKey(stringValue: member.key))
            }
        }
    }
}

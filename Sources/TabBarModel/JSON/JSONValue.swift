/// A parsed JSON value that keeps object members in document order, duplicates included.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The kind of value, as used in problem messages ("found a string").
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as an integer: an integer, or an integral number such as `5.0` within ±2⁶²; nil for anything else.
    var integerValue: Int? {
        switch self {
        case .integer(let integer): integer
        case .double(let double) where double.rounded() == double && abs(double) < 0x1p62: Int(double)
        default: nil
        }
    }
}

extension JSONValue: Decodable {
    /// Whatever JSON value the decoder holds. A `Decoder` neither keeps member order nor duplicate keys, so object
    /// members come sorted by key.
    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: JSONMemberKey.self) {
            var members: [JSONMember] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let value = try object.decodeNil(forKey: key) ? .null : try object.decode(JSONValue.self, forKey: key)
                members.append(JSONMember(key: key.stringValue, value: value))
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd {
                elements.append(try array.decodeNil() ? .null : try array.decode(JSONValue.self))
            }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int.self) {
                self = .integer(integer)
            } else if let double = try? single.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}

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

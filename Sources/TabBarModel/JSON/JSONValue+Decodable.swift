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

/// A targeting condition in the GrowthBook condition grammar (MongoDB-style JSON:
/// `{"appVersion": {"$vgte": "5.2.0"}, "platform": {"$in": ["ios", "ipados"]}}`), kept as the JSON it was written in.
/// docs/design/model.md, "Targeting".
public struct Condition: Sendable, Hashable {
    /// The condition as parsed.
    let json: JSONValue

    init(json: JSONValue) {
        self.json = json
    }

    /// Whether both are the same JSON, as JSON means it: neither the order of an object's members nor the spelling
    /// of a number (`1`, `1.0`) counts, so a condition equals itself after encoding and decoding.
    public static func == (lhs: Condition, rhs: Condition) -> Bool {
        normalized(lhs.json) == normalized(rhs.json)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Self.normalized(json))
    }

    /// The value with every object's members sorted by key (duplicates in their order) and integral numbers as
    /// integers.
    private static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double:
            return value.integerValue.map(JSONValue.integer) ?? value
        case .array(let elements):
            return .array(elements.map(normalized))
        case .object(let members):
            let sorted = members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
            return .object(sorted.map { JSONMember(key: $0.element.key, value: normalized($0.element.value)) })
        case .null, .bool, .integer, .string:
            return value
        }
    }
}

extension Condition: Encodable {
    /// The condition's JSON as written.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

extension Condition: Decodable {
    /// Decodes through the strict reader and the grammar of a tab's or an experiment's condition (groups are not
    /// checked: they belong to the document); throws `ConfigDecodingError.invalid` with every problem, pointers from
    /// the decoder's coding path.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decodePart(decoder, { $0.readCondition($1, at: "") }) { .condition($0) }
    }
}

/// A targeting condition in the GrowthBook condition grammar (MongoDB-style JSON:
/// `{"appVersion": {"$vgte": "5.2.0"}, "platform": {"$in": ["ios", "ipados"]}}`), kept as the JSON it was written in.
/// docs/ARCHITECTURE.md, "Targeting".
public struct Condition: Sendable, Hashable {
    /// The condition as parsed.
    let json: JSONValue

    init(json: JSONValue) {
        self.json = json
    }
}

extension Condition: Encodable {
    /// The condition's JSON as written.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

extension Condition: Decodable {
    /// Any JSON value; the rules of a condition are checked with the document holding it.
    public init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
    }
}

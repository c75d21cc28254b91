import Foundation
import TabConfigClient

/// Holds tabconfig's hand-written client types (`TabConfigClient`) against the types the generator made of
/// openapi.yaml: an answer the generated type decoded must decode into the hand-written one and encode back to the
/// same JSON, so the hand-written type neither misses nor misnames a member the spec gives.
enum WireTypes {
    /// Throws, naming the members that differ, unless `generated` survives a round trip through `HandWritten`.
    /// Returns a note for the checklist line.
    static func agree<Generated: Encodable, HandWritten: Codable>(
        _ generated: Generated, as handWritten: HandWritten.Type
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let spec = try encoder.encode(generated)
        let decoded = try JSONDecoder().decode(HandWritten.self, from: spec)
        let ours = try encoder.encode(decoded)
        let expected = try normalized(spec)
        let actual = try normalized(ours)
        guard expected == actual else {
            throw CheckFailure(
                "TabConfigClient.\(HandWritten.self) differs from the spec's type:\n  spec: \(expected)\n  ours: \(actual)")
        }
        return "TabConfigClient.\(HandWritten.self) agrees"
    }

    /// JSON text with sorted keys and without `null` members: the two sides may differ in writing an absent member.
    private static func normalized(_ data: Data) throws -> String {
        let object = dropNulls(try JSONSerialization.jsonObject(with: data))
        let text = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: text, as: UTF8.self)
    }

    private static func dropNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues(dropNulls)
        }
        if let array = value as? [Any] { return array.map(dropNulls) }
        return value
    }
}

import Foundation

/// Compact canonical JSON: sorted keys, slashes unescaped.
enum CanonicalJSON {
    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("model values hold only strings, integers, booleans and containers: \(error)")
        }
    }
}

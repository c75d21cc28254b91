import Foundation
@testable import TabBarModel

/// The fixture `growthbook-cases.json`, read with JSONSerialization and turned into the model's `JSONValue`s.
enum GrowthBookCases {
    /// A fixture value of an unexpected shape.
    struct UnexpectedValue: Error {
        var description: String
    }

    private static let document: [String: JSONValue] = {
        guard let data = try? Fixture.data("growthbook-cases.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { try? value($0) }
    }()

    /// The cases of one section, each an array; none when the fixture cannot be read (`fixtureIsRead`
    /// then fails).
    static func section(_ name: String) -> [[JSONValue]] {
        guard case .array(let cases) = document[name] else { return [] }
        return cases.compactMap { testCase in
            if case .array(let elements) = testCase { elements } else { nil }
        }
    }

    /// A JSONSerialization value as a `JSONValue` (booleans told from numbers by their Objective-C type `c`; object
    /// keys sorted, as JSONSerialization keeps no order).
    static func value(_ any: Any) throws -> JSONValue {
        switch any {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            default: return .integer(number.intValue)
            }
        case let array as [Any]: return .array(try array.map(value))
        case let object as [String: Any]:
            return .object(
                try object.keys.sorted().map { key in JSONMember(key: key, value: try value(object[key] as Any)) })
        default: throw UnexpectedValue(description: "\(type(of: any))")
        }
    }

    /// The string a case holds.
    static func string(_ value: JSONValue) throws -> String {
        guard case .string(let string) = value else { throw UnexpectedValue(description: "\(value)") }
        return string
    }

    /// The number a case holds.
    static func number(_ value: JSONValue) throws -> Double {
        guard let number = value.numberValue else { throw UnexpectedValue(description: "\(value)") }
        return number
    }

    /// A list of numbers, nil for JSON null.
    static func numbers(_ value: JSONValue) throws -> [Double]? {
        guard case .array(let elements) = value else { return nil }
        return try elements.map(number)
    }

    /// A list of `[start, end]` pairs.
    static func ranges(_ value: JSONValue) throws -> [VariationRange] {
        guard case .array(let pairs) = value else { throw UnexpectedValue(description: "\(value)") }
        return try pairs.map { pair in
            guard let bounds = try numbers(pair), bounds.count == 2 else {
                throw UnexpectedValue(description: "\(pair)")
            }
            return VariationRange(start: bounds[0], end: bounds[1])
        }
    }
}

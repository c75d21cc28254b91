/// JavaScript's view of a JSON value, as GrowthBook's reference SDK sees attributes and conditions: its coercions,
/// strict equality, relational comparison and `JSON.stringify`. Strings compare by UTF-16 code unit, as in JavaScript.
extension JSONValue {
    /// The value as a JavaScript number (`value * 1`): null 0, booleans 0/1, strings parsed, arrays through their
    /// string form, objects NaN.
    var javaScriptNumber: Double {
        switch self {
        case .null: 0
        case .bool(let bool): bool ? 1 : 0
        case .integer(let integer): Double(integer)
        case .double(let double): double
        case .string(let string): JavaScriptNumber.parse(string)
        case .array: JavaScriptNumber.parse(javaScriptString)
        case .object: .nan
        }
    }

    /// The value as a JavaScript string (`value + ""`): arrays joined by commas, objects `[object Object]`.
    var javaScriptString: String {
        switch self {
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .integer, .double: JavaScriptNumber.string(javaScriptNumber)
        case .string(let string): string
        case .array(let elements): elements.map { $0 == .null ? "" : $0.javaScriptString }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// JavaScript truthiness (`!!value`).
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let bool): bool
        case .integer(let integer): integer != 0
        case .double(let double): double != 0 && !double.isNaN
        case .string(let string): !string.isEmpty
        case .array, .object: true
        }
    }

    /// The number if the value is one.
    var numberValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    /// JavaScript's `===` (and `includes`) between two parsed values: arrays and objects are distinct references, so
    /// never equal.
    func strictlyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.string(let left), .string(let right)): left.utf16.elementsEqual(right.utf16)
        default:
            if let left = numberValue, let right = other.numberValue { left == right } else { false }
        }
    }

    /// JavaScript's `<` (`orEqual` false) or `<=` (`orEqual` true): two strings (arrays and objects become strings)
    /// compare by code unit, anything else as numbers, where NaN makes every comparison false.
    func javaScriptLess(than other: JSONValue, orEqual: Bool) -> Bool {
        let left = primitive, right = other.primitive
        if case .string(let leftString) = left, case .string(let rightString) = right {
            return orEqual
                ? !JSONValue.codeUnitsLess(rightString, leftString) : JSONValue.codeUnitsLess(leftString, rightString)
        }
        let leftNumber = left.javaScriptNumber, rightNumber = right.javaScriptNumber
        return orEqual ? leftNumber <= rightNumber : leftNumber < rightNumber
    }

    /// JavaScript's string ordering: lexicographic by UTF-16 code unit.
    static func codeUnitsLess(_ left: String, _ right: String) -> Bool {
        left.utf16.lexicographicallyPrecedes(right.utf16)
    }

    /// The value JavaScript's `ToPrimitive` gives: arrays and objects as their strings.
    private var primitive: JSONValue {
        switch self {
        case .array, .object: .string(javaScriptString)
        default: self
        }
    }

    /// The members as a JavaScript object holds them: for a duplicated key the last value at the first position,
    /// array-index keys ("0", "12") first in ascending order, then the others in document order.
    var javaScriptEntries: [JSONMember] {
        guard case .object(let members) = self else { return [] }
        if Self.isInJavaScriptOrder(members) { return members }
        var order: [String] = []
        var values: [String: JSONValue] = [:]
        for member in members {
            if values.updateValue(member.value, forKey: member.key) == nil { order.append(member.key) }
        }
        let indices = order.compactMap { key in JSONValue.arrayIndex(key).map { (key, $0) } }.sorted { $0.1 < $1.1 }
        let others = order.filter { JSONValue.arrayIndex($0) == nil }
        return (indices.map(\.0) + others).compactMap { key in values[key].map { JSONMember(key: key, value: $0) } }
    }

    /// Whether a few members are already what `javaScriptEntries` gives: no key repeats and none is an array index
    /// (those start with a digit). Conditions are such objects; checking costs no allocation, where reordering does.
    private static func isInJavaScriptOrder(_ members: [JSONMember]) -> Bool {
        guard members.count <= 8 else { return false }
        for (index, member) in members.enumerated() {
            if let first = member.key.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                return false
            }
            for earlier in members[..<index] where earlier.key == member.key {
                return false
            }
        }
        return true
    }

    /// The key's value as a JavaScript property lookup (`key in value`) finds it, for objects and arrays.
    func javaScriptProperty(_ key: String) -> JSONValue? {
        switch self {
        case .object(let members): members.last { $0.key == key }?.value
        case .array(let elements):
            if key == "length" { .integer(elements.count) } else {
                JSONValue.arrayIndex(key).flatMap { $0 < elements.count ? elements[$0] : nil }
            }
        default: nil
        }
    }

    /// The index a canonical array-index key names ("0", "7", not "07" or "-1").
    private static func arrayIndex(_ key: String) -> Int? {
        guard let index = UInt32(key), index < UInt32.max, String(index) == key else { return nil }
        return Int(index)
    }

    /// `JSON.stringify(value)`, the text GrowthBook compares for implicit equality of arrays and objects.
    var javaScriptJSON: String {
        switch self {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .integer, .double:
            let number = javaScriptNumber
            return number.isFinite ? JavaScriptNumber.string(number) : "null"
        case .string(let string): return JSONValue.quoted(string)
        case .array(let elements): return "[" + elements.map(\.javaScriptJSON).joined(separator: ",") + "]"
        case .object:
            let members = javaScriptEntries.map { JSONValue.quoted($0.key) + ":" + $0.value.javaScriptJSON }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// GrowthBook's type names (`$type`): null, array, string, number, boolean, object.
    var growthBookType: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

import Foundation

/// Reads typed values out of a parsed JSON tree, collecting a problem (with its pointer) for every unknown key,
/// duplicate key, missing required member and wrong type instead of stopping at the first.
///
/// Every pointer with a structural problem is also *tainted*: semantic checks later skip tainted places,
/// so a value that could not be read is reported once, not again as a placeholder that fails a rule.
struct JSONReader {
    private(set) var problems: [ValidationProblem] = []
    private(set) var tainted: [String] = []

    /// Records a problem and taints its pointer.
    mutating func report(_ pointer: String, _ message: String) {
        problems.append(ValidationProblem(pointer: pointer, message: message))
        tainted.append(pointer)
    }

    /// Taints a pointer without a problem of its own (its cause was reported elsewhere).
    mutating func taint(_ pointer: String) {
        tainted.append(pointer)
    }

    /// An object whose keys must all be in `allowedKeys` (any key when nil).
    mutating func object(_ value: JSONValue, at pointer: String, allowedKeys: Set<String>?) -> JSONObject? {
        guard case .object(let list) = value else {
            report(pointer, "expected an object, found \(value.kindDescription)")
            return nil
        }
        var members: [String: JSONValue] = [:]
        for member in list {
            let memberPointer = JSONPointer.appending(member.key, to: pointer)
            if let allowedKeys, !allowedKeys.contains(member.key) {
                let hint = KeySuggestion.didYouMean(member.key, in: allowedKeys)
                report(memberPointer, "unknown field \"\(member.key)\"" + hint)
            } else if members[member.key] != nil {
                report(memberPointer, "duplicate key \"\(member.key)\"")
            } else {
                members[member.key] = member.value
            }
        }
        return JSONObject(pointer: pointer, members: members)
    }

    /// A member that must be present and not null.
    mutating func required(_ object: JSONObject, _ key: String) -> JSONValue? {
        guard let value = object[key] else {
            report(object.pointer(key), "is required")
            return nil
        }
        return value
    }

    /// A string value.
    mutating func string(_ value: JSONValue, at pointer: String) -> String? {
        guard case .string(let string) = value else {
            report(pointer, "expected a string, found \(value.kindDescription)")
            return nil
        }
        return string
    }

    /// An optional string member.
    mutating func string(_ object: JSONObject, _ key: String) -> String? {
        object[key].flatMap { string($0, at: object.pointer(key)) }
    }

    /// A required string member.
    mutating func requiredString(_ object: JSONObject, _ key: String) -> String? {
        required(object, key).flatMap { string($0, at: object.pointer(key)) }
    }

    /// An optional boolean member.
    mutating func bool(_ object: JSONObject, _ key: String) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let bool) = value else {
            report(object.pointer(key), "expected a boolean, found \(value.kindDescription)")
            return nil
        }
        return bool
    }

    /// An optional integer member; integral numbers such as `5.0` count as integers.
    mutating func integer(_ object: JSONObject, _ key: String) -> Int? {
        guard let value = object[key] else { return nil }
        if let integer = value.integerValue {
            return integer
        }
        switch value {
        case .double:
            report(object.pointer(key), "expected an integer, found a number that is not one")
            return nil
        default:
            report(object.pointer(key), "expected an integer, found \(value.kindDescription)")
            return nil
        }
    }

    /// An optional member holding one of an enumeration's raw values.
    mutating func enumeration<Value>(_ type: Value.Type, _ object: JSONObject, _ key: String) -> Value?
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        guard let raw = string(object, key) else { return nil }
        guard let value = Value(rawValue: raw) else {
            let choices = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            report(object.pointer(key), "must be one of \(choices), found \"\(raw)\"")
            return nil
        }
        return value
    }

    /// A number value; integers count as numbers.
    mutating func number(_ value: JSONValue, at pointer: String) -> Double? {
        guard let number = value.numberValue else {
            report(pointer, "expected a number, found \(value.kindDescription)")
            return nil
        }
        return number
    }

    /// An optional number member.
    mutating func number(_ object: JSONObject, _ key: String) -> Double? {
        object[key].flatMap { number($0, at: object.pointer(key)) }
    }

    /// An array value.
    mutating func array(_ value: JSONValue, at pointer: String) -> [JSONValue]? {
        guard case .array(let elements) = value else {
            report(pointer, "expected an array, found \(value.kindDescription)")
            return nil
        }
        return elements
    }

    /// An optional array member.
    mutating func array(_ object: JSONObject, _ key: String) -> [JSONValue]? {
        object[key].flatMap { array($0, at: object.pointer(key)) }
    }

    /// The elements of an array at `pointer`, each read with `read` (given its pointer); an element that cannot be
    /// read stands as `placeholder`, so the others keep their index.
    mutating func elements<Element>(
        _ elements: [JSONValue],
        at pointer: String,
        placeholder: Element,
        _ read: (inout JSONReader, JSONValue, String) -> Element?
    ) -> [Element] {
        elements.enumerated().map { index, element in
            read(&self, element, JSONPointer.appending(index, to: pointer)) ?? placeholder
        }
    }

    /// An optional member that is an object of strings (any keys).
    mutating func stringMap(_ object: JSONObject, _ key: String) -> [String: String]? {
        guard let value = object[key], let map = self.object(value, at: object.pointer(key), allowedKeys: nil) else {
            return nil
        }
        var result: [String: String] = [:]
        for entryKey in map.members.keys.sorted() {
            guard let entryValue = map.members[entryKey] else { continue }
            let entryPointer = map.pointer(entryKey)
            guard entryValue != .null else {
                report(entryPointer, "expected a string, found null")
                continue
            }
            if let string = string(entryValue, at: entryPointer) {
                result[entryKey] = string
            }
        }
        return result
    }
}

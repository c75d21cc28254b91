/// Evaluates GrowthBook targeting conditions (MongoDB-style JSON, GrowthBook spec 0.8.0) against attributes, with
/// the semantics of GrowthBook's JavaScript SDK (`mongrule.ts`), JavaScript coercions included.
struct ConditionEvaluator: Sendable {
    /// Saved groups by id: the values `$inGroup` / `$notInGroup` look the attribute up in.
    var savedGroups: [String: [JSONValue]]

    init(savedGroups: [String: [JSONValue]] = [:]) {
        self.savedGroups = savedGroups
    }

    /// Whether the attributes satisfy the condition. Every member of the condition must hold: `$or`, `$nor`, `$and`
    /// (arrays of conditions; `$or` of none holds), `$not` (a condition), or a dot path (`attr.tier`) into the
    /// attributes with a value condition. A condition that is not an object holds.
    func evalCondition(_ attributes: JSONValue, _ condition: JSONValue) -> Bool {
        for member in condition.javaScriptEntries {
            let value = member.value
            switch member.key {
            case "$or": if !evalOr(attributes, value) { return false }
            case "$nor": if evalOr(attributes, value) { return false }
            case "$and": if !evalAnd(attributes, value) { return false }
            case "$not": if evalCondition(attributes, value) { return false }
            default: if !evalConditionValue(value, attributes.value(atPath: member.key)) { return false }
            }
        }
        return true
    }

    private func evalOr(_ attributes: JSONValue, _ conditions: JSONValue) -> Bool {
        guard case .array(let list) = conditions, !list.isEmpty else { return true }
        return list.contains { evalCondition(attributes, $0) }
    }

    private func evalAnd(_ attributes: JSONValue, _ conditions: JSONValue) -> Bool {
        guard case .array(let list) = conditions else { return true }
        return list.allSatisfy { evalCondition(attributes, $0) }
    }

    /// Whether a value satisfies a value condition: a string, number, boolean or null compares with the value
    /// (JavaScript coercions, strings lowercased when `caseInsensitive`); an array, or an object whose keys are not
    /// all operators, compares as JSON text; an object of operators needs every operator to hold.
    func evalConditionValue(_ condition: JSONValue, _ value: JSONValue, caseInsensitive: Bool = false) -> Bool {
        switch condition {
        case .string(let expected):
            if caseInsensitive {
                return value.javaScriptString.lowercased().utf16.elementsEqual(expected.lowercased().utf16)
            }
            return value.javaScriptString.utf16.elementsEqual(expected.utf16)
        case .integer, .double:
            return value.javaScriptNumber == condition.javaScriptNumber
        case .bool(let expected):
            return value != .null && value.isTruthy == expected
        case .null:
            return value == .null
        case .array, .object:
            guard condition.isOperatorObject else { return value.javaScriptJSON == condition.javaScriptJSON }
            return condition.javaScriptEntries.allSatisfy { evalOperator($0.key, value, $0.value) }
        }
    }
}

extension JSONValue {
    /// The value at a dot-separated path (`attr.tier`), null when any step is missing.
    func value(atPath path: String) -> JSONValue {
        if !path.utf8.contains(UInt8(ascii: ".")) {
            return isTruthy ? javaScriptProperty(path) ?? .null : .null
        }
        var current = self
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard current.isTruthy, let next = current.javaScriptProperty(String(part)) else { return .null }
            current = next
        }
        return current
    }

    /// Whether the value is an object with at least one key, all of them starting with `$`.
    var isOperatorObject: Bool {
        guard case .object(let members) = self, !members.isEmpty else { return false }
        return members.allSatisfy { $0.key.hasPrefix("$") }
    }
}

/// The operators of a value condition (`{"$gte": 3}`), as GrowthBook's `evalOperatorCondition`.
extension ConditionEvaluator {
    /// Whether the operator holds between the attribute value (`actual`) and its argument; an unknown operator never
    /// holds.
    func evalOperator(_ name: String, _ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch name {
        case "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte":
            return compareVersions(name, actual, expected)
        case "$eq": return actual.strictlyEquals(expected)
        case "$ne": return !actual.strictlyEquals(expected)
        case "$lt": return actual.javaScriptLess(than: expected, orEqual: false)
        case "$lte": return actual.javaScriptLess(than: expected, orEqual: true)
        case "$gt": return expected.javaScriptLess(than: actual, orEqual: false)
        case "$gte": return expected.javaScriptLess(than: actual, orEqual: true)
        case "$exists": return expected.isTruthy ? actual != .null : actual == .null
        case "$in", "$ini", "$nin", "$nini":
            guard case .array(let list) = expected else { return false }
            let found = isIn(actual, list, caseInsensitive: name.hasSuffix("i"))
            return name.hasPrefix("$in") ? found : !found
        case "$inGroup": return isIn(actual, group(expected), caseInsensitive: false)
        case "$notInGroup": return !isIn(actual, group(expected), caseInsensitive: false)
        case "$not": return !evalConditionValue(expected, actual)
        case "$size":
            guard case .array(let elements) = actual else { return false }
            return evalConditionValue(expected, .integer(elements.count))
        case "$elemMatch": return elemMatch(actual, expected)
        case "$all", "$alli":
            guard case .array(let list) = expected else { return false }
            return isInAll(actual, list, caseInsensitive: name == "$alli")
        case "$regex", "$regexi":
            guard case .string(let pattern) = expected else { return false }
            let text = actual.javaScriptString
            return BoundedRegex.test(pattern: pattern, caseInsensitive: name == "$regexi", text: text)
        case "$type":
            guard case .string(let type) = expected else { return false }
            return actual.growthBookType == type
        default:
            return false
        }
    }

    private func compareVersions(_ name: String, _ actual: JSONValue, _ expected: JSONValue) -> Bool {
        let left = PaddedVersion.string(for: actual), right = PaddedVersion.string(for: expected)
        let equal = left.utf16.elementsEqual(right.utf16)
        switch name {
        case "$veq": return equal
        case "$vne": return !equal
        case "$vgt": return JSONValue.codeUnitsLess(right, left)
        case "$vgte": return equal || JSONValue.codeUnitsLess(right, left)
        case "$vlt": return JSONValue.codeUnitsLess(left, right)
        default: return equal || JSONValue.codeUnitsLess(left, right)
        }
    }

    /// The saved group a `$inGroup` argument names (its string form as the key), empty when there is none.
    private func group(_ id: JSONValue) -> [JSONValue] {
        savedGroups[id.javaScriptString] ?? []
    }

    /// Whether the value (any element of it, when an array) is strictly equal to an element of the list.
    private func isIn(_ actual: JSONValue, _ list: [JSONValue], caseInsensitive: Bool) -> Bool {
        let candidates: [JSONValue] = if case .array(let elements) = actual { elements } else { [actual] }
        let fold: (JSONValue) -> JSONValue = { value in
            if caseInsensitive, case .string(let string) = value { .string(string.lowercased()) } else { value }
        }
        let folded = list.map(fold)
        return candidates.contains { candidate in
            let value = fold(candidate)
            return folded.contains { value.strictlyEquals($0) }
        }
    }

    /// Whether every condition in the list is satisfied by some element of the array.
    private func isInAll(_ actual: JSONValue, _ list: [JSONValue], caseInsensitive: Bool) -> Bool {
        guard case .array(let elements) = actual else { return false }
        return list.allSatisfy { condition in
            elements.contains { evalConditionValue(condition, $0, caseInsensitive: caseInsensitive) }
        }
    }

    /// Whether some truthy element of the array satisfies the condition: a value condition when it is an object of
    /// operators, else a condition on the element as attributes.
    private func elemMatch(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        guard case .array(let elements) = actual else { return false }
        let isOperators = expected.isOperatorObject
        return elements.contains { element in
            element.isTruthy
                && (isOperators ? evalConditionValue(expected, element) : evalCondition(element, expected))
        }
    }
}

/// The grammar of a targeting condition (docs/design/model.md, "Targeting"). What `ConditionEvaluator` would quietly
/// take as false or as a literal to compare with (an unknown operator or attribute, a malformed version, an invalid
/// regular expression, a group the document lacks) is a problem here, with its pointer.
struct ConditionValidator {
    /// Most JSON values (objects, arrays and scalars, each counting one) in one condition, so that evaluating it stays
    /// cheap.
    static let maximumValues = 1_000
    /// The operators of a condition: `$and`, `$or` and `$nor` take arrays of conditions, `$not` one condition.
    static let conditionOperators: Set<String> = ["$and", "$or", "$nor", "$not"]
    /// The operators of a value condition (`{"$vgte": "5.2"}`).
    static let valueOperators: Set<String> = [
        "$eq", "$ne", "$lt", "$lte", "$gt", "$gte", "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte", "$exists", "$in",
        "$nin", "$ini", "$nini", "$all", "$alli", "$inGroup", "$notInGroup", "$not", "$size", "$elemMatch", "$regex",
        "$regexi", "$type",
    ]
    /// What `$type` may name.
    static let typeNames = ["string", "number", "boolean", "array", "object", "null", "undefined"]

    /// The groups `$inGroup` and `$notInGroup` may name; nil when they are not known, and then not checked.
    let groups: Set<String>?
    private(set) var problems: [ValidationProblem] = []

    init(groups: Set<String>?) {
        self.groups = groups
    }

    /// Checks a tab's or an experiment's condition: its size, its grammar and the attributes it names.
    mutating func check(_ condition: Condition, at pointer: String) {
        let count = Self.valueCount(condition.json)
        if count > Self.maximumValues {
            report(pointer, "must have at most \(Self.maximumValues) JSON values, has \(count)")
            return
        }
        checkCondition(condition.json, at: pointer, checksAttributes: true)
    }

    private static func valueCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): elements.reduce(1) { $0 + valueCount($1) }
        case .object(let members): members.reduce(1) { $0 + valueCount($1.value) }
        case .null, .bool, .integer, .double, .string: 1
        }
    }

    // MARK: - Conditions

    /// An object of `$and`, `$or`, `$nor`, `$not` and attribute paths with their value conditions. Attribute names are
    /// checked against the request context unless `checksAttributes` is false (a condition over the elements of an
    /// array, in `$elemMatch`).
    private mutating func checkCondition(_ value: JSONValue, at pointer: String, checksAttributes: Bool) {
        guard case .object(let members) = value else {
            report(pointer, "expected a condition (an object), found \(value.kindDescription)")
            return
        }
        for member in uniqueMembers(members, at: pointer) {
            let memberPointer = JSONPointer.appending(member.key, to: pointer)
            switch member.key {
            case "$and", "$or", "$nor":
                guard case .array(let conditions) = member.value else {
                    report(memberPointer, "expected an array of conditions, found \(member.value.kindDescription)")
                    continue
                }
                for (index, condition) in conditions.enumerated() {
                    let conditionPointer = JSONPointer.appending(index, to: memberPointer)
                    checkCondition(condition, at: conditionPointer, checksAttributes: checksAttributes)
                }
            case "$not":
                checkCondition(member.value, at: memberPointer, checksAttributes: checksAttributes)
            case let key where key.hasPrefix("$"):
                report(memberPointer, Self.unknownConditionOperatorMessage(key))
            default:
                if checksAttributes {
                    checkAttribute(member.key, at: memberPointer)
                }
                checkValueCondition(member.value, at: memberPointer)
            }
        }
    }

    private static func unknownConditionOperatorMessage(_ key: String) -> String {
        if valueOperators.contains(key) {
            return "unknown operator \"\(key)\" here: it applies to an attribute, "
                + "as in {\"platform\": {\"\(key)\": …}}"
        }
        return "unknown operator \"\(key)\"" + KeySuggestion.didYouMean(key, in: conditionOperators)
    }

    private mutating func checkAttribute(_ path: String, at pointer: String) {
        guard !ContextAttribute.isKnownPath(path) else { return }
        if path.hasPrefix(ContextAttribute.customObject + ".") {
            report(
                pointer,
                "unknown attribute \"\(path)\": a custom attribute is attr.NAME, NAME matching "
                    + ContextAttribute.customNamePattern
            )
        } else {
            let known = ContextAttribute.names.union([ContextAttribute.customObject])
            report(pointer, "unknown attribute \"\(path)\"" + KeySuggestion.didYouMean(path, in: known))
        }
    }

    // MARK: - Value conditions

    /// A literal (a scalar, an array, or an object without operators) compares with the value; an object of
    /// operators applies each. An object mixing both would be compared as a literal, which is never what was meant.
    private mutating func checkValueCondition(_ value: JSONValue, at pointer: String) {
        guard case .object(let members) = value,
            let firstOperator = members.first(where: { $0.key.hasPrefix("$") })
        else { return }
        if let field = members.first(where: { !$0.key.hasPrefix("$") }) {
            report(pointer, "mixes operators and fields (\"\(firstOperator.key)\" and \"\(field.key)\")")
            return
        }
        for member in uniqueMembers(members, at: pointer) {
            checkOperator(member.key, member.value, at: JSONPointer.appending(member.key, to: pointer))
        }
    }

    private mutating func checkOperator(_ name: String, _ argument: JSONValue, at pointer: String) {
        switch name {
        case "$eq", "$ne":
            break
        case "$lt", "$lte", "$gt", "$gte":
            switch argument {
            case .string, .integer, .double: break
            default: report(pointer, "expects a string or a number, found \(argument.kindDescription)")
            }
        case "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte":
            guard case .string(let version) = argument else {
                report(pointer, "expects a version (a string), found \(argument.kindDescription)")
                return
            }
            if !VersionFormat.isWellFormed(version) {
                report(pointer, "malformed version \"\(version)\", expected one matching \(VersionFormat.pattern)")
            }
        case "$exists":
            if case .bool = argument { break }
            report(pointer, "expects a boolean, found \(argument.kindDescription)")
        case "$in", "$nin", "$ini", "$nini", "$all", "$alli":
            if case .array = argument { break }
            report(pointer, "expects an array, found \(argument.kindDescription)")
        case "$inGroup", "$notInGroup":
            checkGroup(argument, at: pointer)
        case "$not", "$size":
            checkValueCondition(argument, at: pointer)
        case "$elemMatch":
            guard case .object = argument else {
                report(pointer, "expects an object, found \(argument.kindDescription)")
                return
            }
            if argument.isOperatorObject {
                checkValueCondition(argument, at: pointer)
            } else {
                checkCondition(argument, at: pointer, checksAttributes: false)
            }
        case "$regex", "$regexi":
            checkRegularExpression(argument, at: pointer)
        case "$type":
            guard case .string(let type) = argument, Self.typeNames.contains(type) else {
                let choices = Self.typeNames.map { "\"\($0)\"" }.joined(separator: ", ")
                let found = if case .string(let type) = argument { "\"\(type)\"" } else { argument.kindDescription }
                report(pointer, "must be one of \(choices), found \(found)")
                return
            }
        default:
            report(pointer, "unknown operator \"\(name)\"" + KeySuggestion.didYouMean(name, in: Self.valueOperators))
        }
    }

    private mutating func checkGroup(_ argument: JSONValue, at pointer: String) {
        guard case .string(let group) = argument else {
            report(pointer, "expects a group name (a string), found \(argument.kindDescription)")
            return
        }
        if let groups, !groups.contains(group) {
            report(pointer, "names no group \"\(group)\"" + KeySuggestion.didYouMean(group, in: groups))
        }
    }

    private mutating func checkRegularExpression(_ argument: JSONValue, at pointer: String) {
        guard case .string(let pattern) = argument else {
            report(pointer, "expects a regular expression (a string), found \(argument.kindDescription)")
            return
        }
        let length = pattern.utf16.count
        if length > BoundedRegex.maximumPatternLength {
            report(pointer, "must be at most \(BoundedRegex.maximumPatternLength) UTF-16 code units, has \(length)")
        } else if let reason = BoundedRegex.compileError(pattern) {
            report(pointer, "invalid regular expression: \(reason)")
        }
    }

    // MARK: - Helpers

    /// The members of an object, a duplicated key reported (at its pointer) and left out.
    private mutating func uniqueMembers(_ members: [JSONMember], at pointer: String) -> [JSONMember] {
        var seen: Set<String> = []
        return members.filter { member in
            if seen.insert(member.key).inserted { return true }
            report(JSONPointer.appending(member.key, to: pointer), "duplicate key \"\(member.key)\"")
            return false
        }
    }

    private mutating func report(_ pointer: String, _ message: String) {
        problems.append(ValidationProblem(pointer: pointer, message: message))
    }
}

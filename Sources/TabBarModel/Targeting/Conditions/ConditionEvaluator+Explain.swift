/// Where a condition fails, for explaining an outcome.
extension ConditionEvaluator {
    /// The part of a condition that failed: its JSON pointer and, for an attribute's condition, the attribute and
    /// the value the request has (null when none).
    struct Failure: Sendable, Equatable {
        let pointer: String
        let attribute: String?
        let actual: JSONValue?
    }

    /// The first member of `condition` (at `pointer` in its document) that does not hold, in the order
    /// ``evalCondition(_:_:)`` checks them; nil when the condition holds. An `$and` is followed into its first
    /// failing condition and an attribute's operator object to its first failing operator; `$or`, `$nor` and `$not`
    /// fail as a whole.
    func firstFailure(_ attributes: JSONValue, _ condition: JSONValue, at pointer: String) -> Failure? {
        for member in condition.javaScriptEntries {
            let memberPointer = JSONPointer.appending(member.key, to: pointer)
            let value = member.value
            switch member.key {
            case "$or", "$nor", "$not":
                if !evalCondition(attributes, .object([member])) {
                    return Failure(pointer: memberPointer, attribute: nil, actual: nil)
                }
            case "$and":
                guard case .array(let list) = value else { continue }
                for (index, element) in list.enumerated() {
                    if let failure = firstFailure(
                        attributes, element, at: JSONPointer.appending(index, to: memberPointer))
                    {
                        return failure
                    }
                }
            default:
                let actual = attributes.value(atPath: member.key)
                guard !evalConditionValue(value, actual) else { continue }
                var failing = memberPointer
                if value.isOperatorObject,
                    let failed = value.javaScriptEntries.first(where: { !evalOperator($0.key, actual, $0.value) })
                {
                    failing = JSONPointer.appending(failed.key, to: memberPointer)
                }
                return Failure(pointer: failing, attribute: member.key, actual: actual)
            }
        }
        return nil
    }
}

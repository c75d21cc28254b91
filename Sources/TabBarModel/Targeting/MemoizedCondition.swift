import Synchronization

/// A condition of a live config with the answers it gave, by the values of the attributes it reads.
///
/// A condition reads the request's attributes only at the paths named at its condition levels (its top and inside
/// `$and`, `$or`, `$nor` and `$not`), and evaluation is a pure function of those values: so its answer for the same
/// values is the same. The attributes conditions usually read (platform, app and OS versions, country, locale) take
/// few values across an app's users, which makes evaluation a dictionary lookup on the hot path. At most
/// ``maximumEntries`` answers are kept per condition; one that reads a value unique to each request (`userId`,
/// `deviceId`) fills them and is evaluated every time past that, as without the memo.
struct MemoizedCondition: Sendable {
    /// The most answers kept.
    static let maximumEntries = 4096

    /// The condition.
    let json: JSONValue
    /// The attribute paths it reads, sorted.
    private let paths: [String]
    private let answers: Answers

    /// The answers given so far; a class so that copies of the plan share them.
    private final class Answers: Sendable {
        let byValues = Mutex<[String: Bool]>([:])
    }

    init(_ json: JSONValue) {
        self.json = json
        var paths: Set<String> = []
        Self.collectPaths(json, into: &paths)
        self.paths = paths.sorted()
        answers = Answers()
    }

    /// Whether the condition holds for `attributes`, as `evaluator.evalCondition` says.
    func holds(_ attributes: JSONValue, evaluator: ConditionEvaluator) -> Bool {
        guard let key = key(attributes) else { return evaluator.evalCondition(attributes, json) }
        if let known = answers.byValues.withLock({ $0[key] }) { return known }
        let answer = evaluator.evalCondition(attributes, json)
        answers.byValues.withLock { byValues in
            if byValues.count < Self.maximumEntries { byValues[key] = answer }
        }
        return answer
    }

    /// The values at the paths, one after another (`s` and the string, or `-` for none, each after a U+0000, which
    /// no context value holds); of a single path, its string or U+0000 for none. Nil when a value is neither a
    /// string nor missing.
    private func key(_ attributes: JSONValue) -> String? {
        if paths.count == 1 {
            switch attributes.value(atPath: paths[0]) {
            case .null: return "\u{0}"
            case .string(let value): return value
            default: return nil
            }
        }
        var key = ""
        for path in paths {
            key.unicodeScalars.append("\u{0}")
            switch attributes.value(atPath: path) {
            case .null: key.unicodeScalars.append("-")
            case .string(let value):
                key.unicodeScalars.append("s")
                key += value
            default: return nil
            }
        }
        return key
    }

    /// The paths named at the condition levels of `condition`.
    private static func collectPaths(_ condition: JSONValue, into paths: inout Set<String>) {
        guard case .object(let members) = condition else { return }
        for member in members {
            switch member.key {
            case "$and", "$or", "$nor":
                if case .array(let list) = member.value {
                    for element in list { collectPaths(element, into: &paths) }
                }
            case "$not": collectPaths(member.value, into: &paths)
            default: paths.insert(member.key)
            }
        }
    }
}

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
    /// The context fields at the attribute paths it reads, in the paths' sorted order; nil when a path names no
    /// field (the `attr` object itself), so that the condition is evaluated every time.
    private let fields: [ContextField]?
    private let answers: Answers

    /// The answers given so far; a class so that copies of the plan share them.
    private final class Answers: Sendable {
        let byValues = Mutex<[String: Bool]>([:])
    }

    init(_ json: JSONValue) {
        self.json = json
        var paths: Set<String> = []
        Self.collectPaths(json, into: &paths)
        let fields = paths.sorted().map(ContextField.init(path:))
        self.fields = fields.contains(nil) ? nil : fields.compactMap { $0 }
        answers = Answers()
    }

    /// Whether the condition holds for `context`, as `evaluator.evalCondition` says of its attributes.
    /// `attributes`: the context's ``RequestContext/attributes`` once built, built here when an answer is not known.
    func holds(_ context: RequestContext, attributes: inout JSONValue?, evaluator: ConditionEvaluator) -> Bool {
        guard let key = key(context) else { return evaluate(context, attributes: &attributes, evaluator: evaluator) }
        if let known = answers.byValues.withLock({ $0[key] }) { return known }
        let answer = evaluate(context, attributes: &attributes, evaluator: evaluator)
        answers.byValues.withLock { byValues in
            if byValues.count < Self.maximumEntries { byValues[key] = answer }
        }
        return answer
    }

    private func evaluate(_ context: RequestContext, attributes: inout JSONValue?, evaluator: ConditionEvaluator) -> Bool {
        let built = attributes ?? context.attributes
        attributes = built
        return evaluator.evalCondition(built, json)
    }

    /// The values of the fields, one after another (`s` and the string, or `-` for none, each after a U+0000, which
    /// no context value holds); of a single field, its string or U+0000 for none. Nil when a path names no field.
    private func key(_ context: RequestContext) -> String? {
        guard let fields else { return nil }
        if fields.count == 1 {
            return context.value(of: fields[0]) ?? "\u{0}"
        }
        var key = ""
        for field in fields {
            key.unicodeScalars.append("\u{0}")
            if let value = context.value(of: field) {
                key.unicodeScalars.append("s")
                key += value
            } else {
                key.unicodeScalars.append("-")
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

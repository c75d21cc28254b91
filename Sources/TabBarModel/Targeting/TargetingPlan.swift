import Foundation

/// A config's targeting rules compiled once (docs/design/model.md, "Targeting"): every tab's `when`, `rollout` and
/// `startsAt` / `endsAt`, and the experiments with their bucket ranges. ``evaluate(_:at:)`` runs per request.
public struct TargetingPlan: Sendable {
    /// One tab of the hierarchy, in document order (parents before their children). A class: evaluation reads
    /// entries on every request, and a reference is cheaper to hand around than the struct's many members.
    final class Entry: Sendable {
        let id: String
        let pointer: String
        /// The index of the parent entry; nil at the top level.
        let parent: Int?
        let when: MemoizedCondition?
        let rollout: Rollout?
        let startsAt: Date?
        let endsAt: Date?
        /// Hard-deprecated: never shown, whatever the request.
        let hidden: Bool
        /// The entry's place among the entries with a rule of their own; nil without one.
        let ordinal: Int?
        /// The rollout's hash attribute and its seed hashed, when there is a rollout.
        let rolloutHash: (field: ContextField, seedState: UInt32)?
        /// Where a staged rollout stands (nil: at its first stage, or not staged).
        let standing: RolloutStanding?
        /// The rollout's coverage in effect.
        let coverage: Double

        init(
            id: String, pointer: String, parent: Int?, when: MemoizedCondition?, rollout: Rollout?, startsAt: Date?,
            endsAt: Date?, hidden: Bool, ordinal: Int?, standing: RolloutStanding? = nil
        ) {
            self.id = id
            self.pointer = pointer
            self.parent = parent
            self.when = when
            self.rollout = rollout
            self.startsAt = startsAt
            self.endsAt = endsAt
            self.hidden = hidden
            self.ordinal = ordinal
            self.standing = rollout?.isStaged == true ? standing : nil
            coverage = rollout?.coverage(at: standing) ?? 1
            rolloutHash = rollout.flatMap { rollout in
                ContextField(path: rollout.hashAttribute ?? TargetingPlan.defaultHashAttribute).map {
                    ($0, FNV1a.hash(utf16: rollout.seed ?? id))
                }
            }
        }
    }

    /// One experiment, its ranges computed; a class for the reason ``Entry`` is one.
    final class CompiledExperiment: Sendable {
        let key: String
        let pointer: String
        let when: MemoizedCondition?
        let hashAttribute: String
        let ranges: [VariationRange]
        /// Per variation, its part of an outcome key: `.e`, the experiment's index, `v`, the variation.
        let outcomeKeys: [String]
        /// The field of `hashAttribute`, nil when it names none (a config that failed validation).
        let hashField: ContextField?
        /// The experiment's seed hashed.
        let seedState: UInt32

        init(
            key: String, pointer: String, when: MemoizedCondition?, seed: String, hashAttribute: String,
            ranges: [VariationRange], outcomeKeys: [String]
        ) {
            self.key = key
            self.pointer = pointer
            self.when = when
            self.hashAttribute = hashAttribute
            self.ranges = ranges
            self.outcomeKeys = outcomeKeys
            hashField = ContextField(path: hashAttribute)
            seedState = FNV1a.hash(utf16: seed)
        }
    }

    let entries: [Entry]
    /// Indices of the entries with a rule of their own that can be shown, in document order.
    let ruled: [Int]
    let experiments: [CompiledExperiment]
    let evaluator: ConditionEvaluator
    /// Every `startsAt` and `endsAt`, sorted.
    let boundaries: [Date]
    let targetedCount: Int

    /// The hash attribute of rollouts and experiments that name none.
    static let defaultHashAttribute = "userId"

    /// Compiles the rules of a valid config, its staged rollouts standing where `standings` (by tab id) says (at
    /// their first stage when it says nothing).
    public init(config: TabBarConfig, standings: [String: RolloutStanding] = [:]) {
        var entries: [Entry] = []
        var boundaries: [Date] = []
        var ordinal = 0
        func add(_ tabs: [Tab], at pointer: String, parent: Int?) {
            for (index, tab) in tabs.enumerated() {
                let tabPointer = JSONPointer.appending(index, to: pointer)
                let startsAt = tab.startsAt.flatMap(Timestamp.parseTimestamp)
                let endsAt = tab.endsAt.flatMap(Timestamp.parseTimestamp)
                boundaries += [startsAt, endsAt].compactMap { $0 }
                let hasRule = tab.when != nil || tab.rollout != nil || startsAt != nil || endsAt != nil
                entries.append(
                    Entry(
                        id: tab.id, pointer: tabPointer, parent: parent, when: tab.when.map { MemoizedCondition($0.json) }, rollout: tab.rollout,
                        startsAt: startsAt, endsAt: endsAt, hidden: tab.deprecated == .hard,
                        ordinal: hasRule ? ordinal : nil, standing: standings[tab.id]))
                if hasRule { ordinal += 1 }
                if let children = tab.children {
                    add(children, at: JSONPointer.appending("children", to: tabPointer), parent: entries.count - 1)
                }
            }
        }
        add(config.tabs, at: "/tabs", parent: nil)
        self.entries = entries
        ruled = entries.indices.filter { entries[$0].ordinal != nil && !entries[$0].hidden }
        targetedCount = ordinal
        self.boundaries = boundaries.sorted()
        experiments = (config.experiments ?? []).enumerated().map { index, experiment in
            CompiledExperiment(
                key: experiment.key, pointer: "/experiments/\(index)", when: experiment.when.map { MemoizedCondition($0.json) },
                seed: experiment.seed ?? experiment.key,
                hashAttribute: experiment.hashAttribute ?? Self.defaultHashAttribute,
                ranges: Bucketing.getBucketRanges(
                    numVariations: experiment.variations.count, coverage: experiment.coverage,
                    weights: experiment.weights),
                outcomeKeys: experiment.variations.indices.map { ".e\(index)v\($0)" })
        }
        evaluator = ConditionEvaluator(
            savedGroups: (config.groups ?? [:]).mapValues { $0.map(JSONValue.string) })
    }

    /// Whether no tab has a rule and there is no experiment: every request gets ``TargetingOutcome/everything``.
    public var isEmpty: Bool {
        targetedCount == 0 && experiments.isEmpty
    }

    /// The first `startsAt` or `endsAt` after `now`: until then, no outcome changes with the time.
    public func nextBoundary(after now: Date) -> Date? {
        boundaries.first { $0 > now }
    }

    /// The outcome of a request with `context` at `now`.
    public func evaluate(_ context: RequestContext, at now: Date) -> TargetingOutcome {
        if isEmpty { return .everything }
        // The JSON attributes, built only when a condition's answer is not already known.
        var attributes: JSONValue?
        // Marks of the entries whose own rules failed, allocated at the first failure: most requests have none.
        var absent: [Bool] = []
        var bits: [UInt8] = []
        for index in ruled where absent.isEmpty || !hasAbsentAncestor(index, absent) {
            let entry = entries[index]
            guard !holds(entry, context: context, attributes: &attributes, at: now), let ordinal = entry.ordinal else {
                continue
            }
            if absent.isEmpty {
                absent = [Bool](repeating: false, count: entries.count)
                bits = [UInt8](repeating: 0, count: (targetedCount + 3) / 4)
            }
            absent[index] = true
            bits[ordinal / 4] |= 1 << (ordinal % 4)
        }
        var absentIDs: Set<String> = []
        var key = ""
        if !absent.isEmpty {
            for index in entries.indices {
                if let parent = entries[index].parent, absent[parent] { absent[index] = true }
                if absent[index], !entries[index].hidden { absentIDs.insert(entries[index].id) }
            }
            key = ".a" + String(bits.reversed().map { String($0, radix: 16) }.joined().drop { $0 == "0" })
        }
        var assignment: ExperimentAssignment?
        var experimentIndex: Int?
        for (index, experiment) in experiments.enumerated() {
            if let variation = variation(of: experiment, context: context, attributes: &attributes) {
                assignment = ExperimentAssignment(key: experiment.key, variation: variation)
                experimentIndex = index
                key += experiment.outcomeKeys[variation]
                break
            }
        }
        return TargetingOutcome(
            key: key, absentIDs: absentIDs, experiment: assignment, experimentIndex: experimentIndex)
    }

    /// Whether an ancestor of the entry at `index` is marked in `absent`.
    private func hasAbsentAncestor(_ index: Int, _ absent: [Bool]) -> Bool {
        var current = entries[index].parent
        while let parent = current {
            if absent[parent] { return true }
            current = entries[parent].parent
        }
        return false
    }

    /// Whether an entry's own rules let it exist: its time window, its condition, its rollout.
    func holds(_ entry: Entry, context: RequestContext, attributes: inout JSONValue?, at now: Date) -> Bool {
        if let startsAt = entry.startsAt, now < startsAt { return false }
        if let endsAt = entry.endsAt, now >= endsAt { return false }
        if let when = entry.when, !when.holds(context, attributes: &attributes, evaluator: evaluator) { return false }
        if entry.rollout != nil {
            guard let bucket = bucket(of: entry, context: context) else { return false }
            return bucket < entry.coverage
        }
        return true
    }

    /// The rollout bucket of a request for an entry's rollout, nil when it has no value for the hash attribute.
    func bucket(of entry: Entry, context: RequestContext) -> Double? {
        guard let (field, seedState) = entry.rolloutHash, let value = context.hashValue(of: field) else { return nil }
        return Bucketing.hash(seedState: seedState, value: value)
    }

    /// The bucket of a request in an experiment, nil when it has no value for the hash attribute.
    func bucket(of experiment: CompiledExperiment, context: RequestContext) -> Double? {
        guard let field = experiment.hashField, let value = context.hashValue(of: field) else { return nil }
        return Bucketing.hash(seedState: experiment.seedState, value: value)
    }

    /// The variation of an experiment a request gets, nil when it takes no part.
    func variation(of experiment: CompiledExperiment, context: RequestContext, attributes: inout JSONValue?) -> Int? {
        if let when = experiment.when, !when.holds(context, attributes: &attributes, evaluator: evaluator) {
            return nil
        }
        guard let bucket = bucket(of: experiment, context: context) else { return nil }
        let chosen = Bucketing.chooseVariation(bucket: bucket, ranges: experiment.ranges)
        return chosen >= 0 ? chosen : nil
    }
}

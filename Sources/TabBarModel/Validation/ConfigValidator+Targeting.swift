import Foundation

/// The rules of the targeting fields (docs/design/model.md, "Targeting"): a tab's `when`, `rollout`, `startsAt` and
/// `endsAt`, and the document's `groups` and `experiments`.
extension ConfigValidator {
    // MARK: - A tab

    mutating func checkTargeting(of tab: Tab, at pointer: String) {
        if let when = tab.when {
            checkCondition(when, at: pointer + "/when")
        }
        if let rollout = tab.rollout {
            checkRollout(rollout, at: pointer + "/rollout")
        }
        let startsAt = checkTimestamp(tab.startsAt, at: pointer + "/startsAt")
        let endsAt = checkTimestamp(tab.endsAt, at: pointer + "/endsAt")
        if let startsAt, let endsAt, endsAt <= startsAt {
            report(pointer + "/endsAt", "must be after startsAt (\(tab.startsAt ?? ""))")
        }
    }

    /// The grammar of a condition and the attributes it names; the groups it names when the document's are known.
    mutating func checkCondition(_ condition: Condition, at pointer: String) {
        var validator = ConditionValidator(groups: knownGroups)
        validator.check(condition, at: pointer)
        for problem in validator.problems {
            report(problem.pointer, problem.message)
        }
    }

    /// A rollout has `coverage` or `stages`, not both; stages rise strictly in (0, 1], each but the last holds for at
    /// least a second (and at most ``maximumHold``), and come with a `guard`.
    mutating func checkRollout(_ rollout: Rollout, at pointer: String) {
        checkBucketing(
            coverage: rollout.coverage, seed: rollout.seed, hashAttribute: rollout.hashAttribute, at: pointer)
        switch (rollout.coverage, rollout.stages) {
        case (nil, nil):
            if !isTainted(pointer + "/coverage"), !isTainted(pointer + "/stages") {
                report(pointer + "/coverage", "is required, or stages and a guard instead")
            }
        case (.some, .some):
            report(pointer + "/stages", "coverage and stages exclude each other: give one")
        case (.some, nil):
            if rollout.guard != nil {
                report(pointer + "/guard", "guards stages: a rollout with one coverage has nothing to roll back")
            }
        case (nil, .some(let stages)):
            checkStages(stages, at: pointer + "/stages")
            if let guardRule = rollout.guard {
                checkGuard(guardRule, at: pointer + "/guard")
            } else {
                report(pointer + "/guard", "is required with stages: {\"maxFailureRate\": 0.02, \"minOpens\": 500}")
            }
        }
    }

    private mutating func checkStages(_ stages: [RolloutStage], at pointer: String) {
        guard !stages.isEmpty else {
            report(pointer, "must have at least one stage")
            return
        }
        if stages.count > Self.maximumStages {
            report(pointer, "must have at most \(Self.maximumStages) stages, has \(stages.count)")
        }
        var previous = 0.0
        for (index, stage) in stages.enumerated() {
            let stagePointer = pointer + "/\(index)"
            if !(stage.coverage > 0 && stage.coverage <= 1) {
                report(stagePointer + "/coverage", "must be in (0, 1], found \(JavaScriptNumber.string(stage.coverage))")
            } else if stage.coverage <= previous {
                report(
                    stagePointer + "/coverage",
                    "must be above the stage before's \(JavaScriptNumber.string(previous)): coverages rise")
            }
            previous = max(previous, stage.coverage)
            let isLast = index == stages.count - 1
            switch (stage.hold, isLast) {
            case (nil, false):
                report(stagePointer + "/hold", "is required on every stage but the last: an ISO 8601 duration, \"PT1H\"")
            case (.some, true):
                report(stagePointer + "/hold", "is not allowed on the last stage: reaching it completes the rollout")
            case (.some(let hold), false):
                guard let seconds = ISODuration.seconds(hold) else {
                    report(
                        stagePointer + "/hold",
                        "must be an ISO 8601 duration of weeks, days, hours, minutes and seconds (\"PT1H\", \"P2D\"), "
                            + "found \"\(hold.prefix(64))\"")
                    continue
                }
                if seconds < 1 || seconds > Self.maximumHold {
                    report(stagePointer + "/hold", "must be PT1S to P366D, found \"\(hold)\"")
                }
            case (nil, true):
                break
            }
        }
    }

    private mutating func checkGuard(_ guardRule: RolloutGuard, at pointer: String) {
        if !(guardRule.maxFailureRate > 0 && guardRule.maxFailureRate < 1) {
            report(
                pointer + "/maxFailureRate",
                "must be in (0, 1), found \(JavaScriptNumber.string(guardRule.maxFailureRate))")
        }
        if !(1...Self.maximumMinOpens).contains(guardRule.minOpens) {
            report(pointer + "/minOpens", "must be 1…\(Self.maximumMinOpens), found \(guardRule.minOpens)")
        }
    }

    /// What a rollout and an experiment share: the share of buckets covered, the seed and the attribute hashed.
    private mutating func checkBucketing(coverage: Double?, seed: String?, hashAttribute: String?, at pointer: String) {
        checkShare(coverage, at: pointer + "/coverage")
        checkLength(seed, in: Self.seedLength, at: pointer + "/seed")
        if let hashAttribute, !ContextAttribute.isHashable(hashAttribute) {
            report(
                pointer + "/hashAttribute",
                "must be \"userId\", \"deviceId\" or \"attr.NAME\" with NAME matching "
                    + "\(ContextAttribute.customNamePattern), found \"\(hashAttribute)\"")
        }
    }

    /// A number in 0…1.
    private mutating func checkShare(_ share: Double?, at pointer: String) {
        if let share, !(0...1).contains(share) {
            report(pointer, "must be 0…1, found \(JavaScriptNumber.string(share))")
        }
    }

    /// The instant an RFC 3339 date-time names, nil (with a problem when it is malformed) when there is none.
    private mutating func checkTimestamp(_ text: String?, at pointer: String) -> Date? {
        guard let text else { return nil }
        guard let date = Timestamp.parseTimestamp(text) else {
            report(
                pointer,
                "must be an RFC 3339 date-time with an offset, such as \"2026-12-01T00:00:00Z\", found \"\(text)\""
            )
            return nil
        }
        return date
    }

    // MARK: - Groups

    /// The groups conditions may name; nil when they are not known (a part checked on its own, or groups that could
    /// not be read), and then not checked.
    private var knownGroups: Set<String>? {
        guard isWholeDocument, !isTainted("/groups") else { return nil }
        return Set((config.groups ?? [:]).keys)
    }

    mutating func checkGroups() {
        guard let groups = config.groups else { return }
        if groups.count > Self.maximumGroups {
            report("/groups", "must have at most \(Self.maximumGroups) groups, has \(groups.count)")
        }
        for name in groups.keys.sorted() {
            let pointer = JSONPointer.appending(name, to: "/groups")
            if !Identifiers.isValidKey(name) {
                report(pointer, "group name must match \(Identifiers.keyPattern), found \"\(name)\"")
            }
            let values = groups[name] ?? []
            if values.count > Self.maximumGroupValues {
                report(pointer, "must have at most \(Self.maximumGroupValues) values, has \(values.count)")
            }
            for (index, value) in values.enumerated() {
                checkLength(value, in: Self.groupValueLength, at: JSONPointer.appending(index, to: pointer))
            }
        }
    }

    // MARK: - Experiments

    mutating func checkExperiments(firstByID: [String: Entry], idsComplete: Bool) {
        guard let experiments = config.experiments else { return }
        if experiments.count > Self.maximumExperiments {
            report(
                "/experiments", "must have at most \(Self.maximumExperiments) experiments, has \(experiments.count)")
        }
        var firstByKey: [String: String] = [:]
        for (index, experiment) in experiments.enumerated() {
            let pointer = JSONPointer.appending(index, to: "/experiments")
            checkExperiment(experiment, at: pointer, firstByID: firstByID, idsComplete: idsComplete)
            let keyPointer = pointer + "/key"
            guard !isTainted(keyPointer) else { continue }
            if let first = firstByKey[experiment.key] {
                report(keyPointer, "duplicate experiment key \"\(experiment.key)\", first used at \(first)")
            } else {
                firstByKey[experiment.key] = keyPointer
            }
        }
    }

    /// One experiment's rules; the tabs its variations name are checked against `firstByID` (every tab of the
    /// document; said missing only when `idsComplete`).
    mutating func checkExperiment(
        _ experiment: Experiment, at pointer: String, firstByID: [String: Entry], idsComplete: Bool
    ) {
        if !Identifiers.isValidKey(experiment.key) {
            report(pointer + "/key", "must match \(Identifiers.keyPattern), found \"\(experiment.key)\"")
        }
        if let when = experiment.when {
            checkCondition(when, at: pointer + "/when")
        }
        checkBucketing(
            coverage: experiment.coverage, seed: experiment.seed, hashAttribute: experiment.hashAttribute, at: pointer)
        let variationsPointer = pointer + "/variations"
        let count = experiment.variations.count
        if !Self.variationCount.contains(count) {
            report(variationsPointer, "must have \(Self.describe(Self.variationCount)) variations, has \(count)")
        }
        if let weights = experiment.weights {
            let variationCount = isTainted(variationsPointer) ? nil : count
            checkWeights(weights, variationCount: variationCount, at: pointer + "/weights")
        }
        for (index, variation) in experiment.variations.enumerated() {
            let variationPointer = JSONPointer.appending(index, to: variationsPointer)
            checkVariation(variation, at: variationPointer, firstByID: firstByID, idsComplete: idsComplete)
        }
    }

    /// Each weight in 0…1, one per variation (when their number is known), summing to 1.
    private mutating func checkWeights(_ weights: [Double], variationCount: Int?, at pointer: String) {
        let pointers = weights.indices.map { JSONPointer.appending($0, to: pointer) }
        for (weight, weightPointer) in zip(weights, pointers) {
            checkShare(weight, at: weightPointer)
        }
        if let variationCount, weights.count != variationCount {
            report(pointer, "must have one weight per variation (\(variationCount)), has \(weights.count)")
            return
        }
        guard !pointers.contains(where: isTainted), weights.allSatisfy({ (0...1).contains($0) }) else { return }
        let sum = weights.reduce(0, +)
        if abs(sum - 1) > Self.weightSumTolerance {
            report(pointer, "must sum to 1, sum to \(JavaScriptNumber.string(sum))")
        }
    }

    mutating func checkVariation(
        _ variation: Variation, at pointer: String, firstByID: [String: Entry], idsComplete: Bool
    ) {
        if let order = variation.order {
            checkOrder(order, at: pointer + "/order", firstByID: firstByID, idsComplete: idsComplete)
        }
        checkMaxVisibleTabs(variation.maxVisibleTabs, at: pointer + "/maxVisibleTabs")
        if let initialTab = variation.initialTab {
            checkTopLevelTab(
                initialTab, at: pointer + "/initialTab", firstByID: firstByID, idsComplete: idsComplete,
                mustBeSelectable: true)
        }
        if let appearance = variation.appearance {
            checkAppearance(appearance, at: pointer + "/appearance")
        }
    }

    /// Top-level tab ids, each at most once.
    private mutating func checkOrder(
        _ order: [String], at pointer: String, firstByID: [String: Entry], idsComplete: Bool
    ) {
        if order.count > Self.maximumOrderLength {
            report(pointer, "must have at most \(Self.maximumOrderLength) ids, has \(order.count)")
        }
        var firstPointerByID: [String: String] = [:]
        for (index, id) in order.enumerated() {
            let idPointer = JSONPointer.appending(index, to: pointer)
            guard !isTainted(idPointer) else { continue }
            if let first = firstPointerByID[id] {
                report(idPointer, "duplicate id \"\(id)\", first used at \(first)")
                continue
            }
            firstPointerByID[id] = idPointer
            checkTopLevelTab(id, at: idPointer, firstByID: firstByID, idsComplete: idsComplete, mustBeSelectable: false)
        }
    }
}

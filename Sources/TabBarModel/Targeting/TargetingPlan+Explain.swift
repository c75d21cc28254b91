import Foundation

extension TargetingPlan {
    /// Why the request with `context` at `now` gets the outcome ``evaluate(_:at:)`` gives: for each tab and
    /// experiment, whether it applies and, if not, the first rule that failed with its pointer.
    public func explain(_ context: RequestContext, at now: Date) -> TargetingExplanation {
        let attributes = context.attributes
        var known: JSONValue? = attributes
        var reasons: [ExplanationReason?] = []
        reasons.reserveCapacity(entries.count)
        var tabs: [TabExplanation] = []
        for entry in entries {
            var reason: ExplanationReason?
            if entry.hidden {
                reason = ExplanationReason(
                    pointer: entry.pointer + "/deprecated", message: "hard-deprecated tabs are never shown")
            } else if let parent = entry.parent, reasons[parent] != nil {
                reason = ExplanationReason(
                    pointer: entries[parent].pointer, message: "its parent tab \"\(entries[parent].id)\" is absent")
            } else {
                reason = failure(of: entry, context: context, attributes: attributes, at: now)
            }
            reasons.append(reason)
            tabs.append(TabExplanation(id: entry.id, pointer: entry.pointer, present: reason == nil, reason: reason))
        }
        var experimentsExplained: [ExperimentExplanation] = []
        var applied: String?
        for experiment in experiments {
            var explanation = ExperimentExplanation(
                key: experiment.key, pointer: experiment.pointer, applied: false, variation: nil, reason: nil)
            if let applied {
                explanation.reason = ExplanationReason(
                    pointer: applied, message: "an earlier experiment applies; at most one does")
            } else if let reason = failure(of: experiment, context: context, attributes: attributes) {
                explanation.reason = reason
            } else {
                explanation.applied = true
                explanation.variation = variation(of: experiment, context: context, attributes: &known)
                applied = experiment.pointer
            }
            experimentsExplained.append(explanation)
        }
        return TargetingExplanation(tabs: tabs, experiments: experimentsExplained)
    }

    /// The first of an entry's own rules that fails, in the order ``holds(_:context:attributes:at:)`` checks them.
    private func failure(
        of entry: Entry, context: RequestContext, attributes: JSONValue, at now: Date
    ) -> ExplanationReason? {
        if let startsAt = entry.startsAt, now < startsAt {
            return ExplanationReason(
                pointer: entry.pointer + "/startsAt", message: "starts at \(CanonicalJSON.timestamp(startsAt))")
        }
        if let endsAt = entry.endsAt, now >= endsAt {
            return ExplanationReason(
                pointer: entry.pointer + "/endsAt", message: "ended at \(CanonicalJSON.timestamp(endsAt))")
        }
        if let when = entry.when, let failure = evaluator.firstFailure(attributes, when.json, at: entry.pointer + "/when") {
            return Self.reason(failure)
        }
        if let rollout = entry.rollout {
            let attribute = rollout.hashAttribute ?? Self.defaultHashAttribute
            guard let bucket = bucket(of: entry, context: context) else {
                return ExplanationReason(
                    pointer: entry.pointer + "/rollout", message: "the request has no \(attribute) to hash")
            }
            if let stages = rollout.stages, entry.standing == .rolledBack {
                return ExplanationReason(
                    pointer: entry.pointer + "/rollout",
                    message: "the staged rollout was rolled back: coverage 0 of \(stages.count) stages")
            }
            if bucket >= entry.coverage {
                return ExplanationReason(
                    pointer: entry.pointer + Self.coveragePointer(of: rollout, at: entry.standing),
                    message: "\(attribute) falls in bucket \(bucket), not below coverage \(entry.coverage)"
                        + Self.stageNote(of: rollout, at: entry.standing))
            }
        }
        return nil
    }

    /// Why an experiment does not apply: its condition, a missing hash attribute, or a bucket outside its ranges.
    private func failure(
        of experiment: CompiledExperiment, context: RequestContext, attributes: JSONValue
    ) -> ExplanationReason? {
        if let when = experiment.when,
            let failure = evaluator.firstFailure(attributes, when.json, at: experiment.pointer + "/when")
        {
            return Self.reason(failure)
        }
        guard let bucket = bucket(of: experiment, context: context) else {
            return ExplanationReason(
                pointer: experiment.pointer, message: "the request has no \(experiment.hashAttribute) to hash")
        }
        if Bucketing.chooseVariation(bucket: bucket, ranges: experiment.ranges) < 0 {
            return ExplanationReason(
                pointer: experiment.pointer + "/coverage",
                message: "\(experiment.hashAttribute) falls in bucket \(bucket), outside the experiment's coverage")
        }
        return nil
    }

    /// The pointer of the coverage in effect, below the tab's: its one `coverage`, or its stage's.
    private static func coveragePointer(of rollout: Rollout, at standing: RolloutStanding?) -> String {
        guard let stages = rollout.stages else { return "/rollout/coverage" }
        let index: Int
        switch standing ?? .stage(0) {
        case .stage(let stage): index = min(max(stage, 0), stages.count - 1)
        case .completed, .rolledBack: index = stages.count - 1
        }
        return "/rollout/stages/\(index)/coverage"
    }

    /// For a staged rollout, where it stands: ` (rollout stage 2 of 3)`, ` (rollout completed)`; empty otherwise.
    private static func stageNote(of rollout: Rollout, at standing: RolloutStanding?) -> String {
        guard let stages = rollout.stages else { return "" }
        switch standing ?? .stage(0) {
        case .stage(let stage): return " (rollout stage \(min(stage, stages.count - 1) + 1) of \(stages.count))"
        case .completed: return " (rollout completed)"
        case .rolledBack: return " (rollout rolled back)"
        }
    }

    private static func reason(_ failure: ConditionEvaluator.Failure) -> ExplanationReason {
        guard let attribute = failure.attribute else {
            return ExplanationReason(pointer: failure.pointer, message: "this condition does not hold")
        }
        let message: String
        switch failure.actual {
        case .none, .some(.null): message = "the request has no \(attribute)"
        case .some(let value): message = "\(attribute) is \(String(decoding: CanonicalJSON.encode(value), as: UTF8.self))"
        }
        return ExplanationReason(pointer: failure.pointer, message: message)
    }
}

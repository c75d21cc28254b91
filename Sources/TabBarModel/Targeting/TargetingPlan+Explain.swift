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
            let coverage = rollout.startingCoverage
            if bucket >= coverage {
                return ExplanationReason(
                    pointer: entry.pointer + (rollout.stages == nil ? "/rollout/coverage" : "/rollout/stages/0/coverage"),
                    message: "\(attribute) falls in bucket \(bucket), not below coverage \(coverage)")
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

/// What decides whether a tab (top level or child) is in a request's tab bar, as far as the config says: the reason
/// a remote evaluation gives for it (docs/design/model.md, "Targeting").
public enum TabDecider: Sendable, Hashable {
    /// Nothing of the request: the tab is there unless a build cannot open it or the user hides it.
    case fixed
    /// Hard-deprecated, itself or a parent: never there.
    case retired
    /// A `when` or a time window, its own or a parent's.
    case conditions
    /// A rollout's bucket, its own or a parent's.
    case bucket
}

extension TargetingPlan {
    /// Every tab of the hierarchy in document order (parents before their children) with what decides its presence.
    public var tabDeciders: [(id: String, decider: TabDecider)] {
        var deciders: [TabDecider] = []
        deciders.reserveCapacity(entries.count)
        for entry in entries {
            let inherited = entry.parent.map { deciders[$0] } ?? .fixed
            let own: TabDecider =
                entry.hidden
                ? .retired
                : entry.rollout != nil
                    ? .bucket : entry.when != nil || entry.startsAt != nil || entry.endsAt != nil ? .conditions : .fixed
            deciders.append(own.rank >= inherited.rank ? own : inherited)
        }
        return zip(entries, deciders).map { ($0.id, $1) }
    }
}

extension TabDecider {
    /// Which decider wins when a parent's and a tab's own rules both apply: the higher rank.
    fileprivate var rank: Int {
        switch self {
        case .fixed: 0
        case .conditions: 1
        case .bucket: 2
        case .retired: 3
        }
    }
}

/// A change the user made to their tab order: the state they saw and the state they left. Kept instead of the bare
/// result so that it can be made again on a newer state (another device saved meanwhile: the service answered 412),
/// keeping that device's changes where they do not touch the same tabs.
public struct TabOrderEdit: Codable, Sendable, Hashable {
    /// What the user saw when they started.
    public var base: TabOrderState
    /// What they left.
    public var edited: TabOrderState

    /// A value with the given members.
    public init(base: TabOrderState, edited: TabOrderState) {
        self.base = base
        self.edited = edited
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { base == edited }

    /// This edit followed by `next`, made on the state this one left: one edit from this one's base to `next`'s
    /// result.
    public func followed(by next: TabOrderEdit) -> TabOrderEdit {
        TabOrderEdit(base: base, edited: next.edited)
    }

    /// The user's change made again on `latest`. The tabs the user moved are the ones outside the longest run the
    /// edit kept in order (its longest common subsequence with the base); each is taken out of `latest` and put back
    /// after the tab that precedes it in the edited order (first, when none does). Every other tab keeps its place
    /// in `latest`, so a move made meanwhile on another device survives unless it moved the same tab. Hidden tabs:
    /// the ones the user hid are hidden (and out of the order), the ones the user showed are shown, the others stay
    /// as `latest` has them.
    public func applied(to latest: TabOrderState) -> TabOrderState {
        let kept = Set(Self.longestCommonSubsequence(base.order, edited.order))
        let moved = edited.order.filter { !kept.contains($0) }
        let movedSet = Set(moved)
        let hiddenNow = Set(edited.hidden).subtracting(base.hidden)
        let shownNow = Set(base.hidden).subtracting(edited.hidden)
        var order = latest.order.filter { !movedSet.contains($0) && !hiddenNow.contains($0) }
        var previous: [String: String] = [:]
        for (index, id) in edited.order.enumerated() where index > 0 {
            previous[id] = edited.order[index - 1]
        }
        for id in moved {
            var anchor = previous[id]
            while let candidate = anchor, !order.contains(candidate) { anchor = previous[candidate] }
            if let anchor, let position = order.firstIndex(of: anchor) {
                order.insert(id, at: position + 1)
            } else {
                order.insert(id, at: 0)
            }
        }
        var hidden = latest.hidden.filter { !shownNow.contains($0) }
        hidden += edited.hidden.filter { hiddenNow.contains($0) && !hidden.contains($0) }
        return TabOrderState(order: order, hidden: hidden)
    }

    /// The longest common subsequence of two lists of distinct ids (dynamic programming, O(n·m): tab bars hold at
    /// most 50 tabs).
    static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [String] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [String] = []
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                result.append(a[i])
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }
}

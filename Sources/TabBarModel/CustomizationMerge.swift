/// The DESIGN §4 merge of a saved customization into the shown top-level tabs. Deterministic.
///
/// 1. The saved order is resolved: ids gone from the config follow `replaces` (through hard-deprecated tabs too)
///    to the tab that takes their position, unless that tab is already in the saved order or already took one;
///    other gone ids are dropped; duplicates are skipped.
/// 2. Visible tabs are the shown ones minus the effectively hidden (hideable and present) ones.
/// 3. Locked tabs and tabs not in the resolved order (added) take their default slot among the visible tabs,
///    or the next free one after it, else the nearest free one before it.
/// 4. The user's remaining tabs fill the free slots in the user's order.
///
/// Works on indices into the plan's shown tabs, with flags instead of sets: it runs on every request for a
/// user's tab bar, and the lists are short (at most 50 saved ids).
struct CustomizationMerge {
    /// Visible top-level tabs in display order, as indices into `MergePlan.shownIDs`.
    let order: [Int]
    /// Hidden ids that took effect, in saved order.
    let hidden: [String]
    let added: [String]
    let dropped: [String]
    let replaced: [String: String]

    init(plan: MergePlan, customization: Customization) {
        let count = plan.shownIDs.count
        var savedShown = [Bool](repeating: false, count: count)
        for id in customization.order {
            if let position = plan.index[id] {
                savedShown[position] = true
            }
        }
        var resolved: [Int] = []
        var taken = [Bool](repeating: false, count: count)
        var processed: [String] = []
        var dropped: [String] = []
        var replaced: [String: String] = [:]
        for id in customization.order where !processed.contains(id) {
            processed.append(id)
            if let position = plan.index[id] {
                if !taken[position] {
                    taken[position] = true
                    resolved.append(position)
                }
            } else if let target = plan.successor(of: id), !savedShown[target], !taken[target] {
                taken[target] = true
                resolved.append(target)
                replaced[id] = plan.shownIDs[target]
            } else {
                dropped.append(id)
            }
        }

        var isHidden = [Bool](repeating: false, count: count)
        var hidden: [String] = []
        for id in customization.hidden {
            if let position = plan.index[id], plan.hideable[position], !isHidden[position] {
                isHidden[position] = true
                hidden.append(id)
            }
        }
        let visible = (0..<count).filter { !isHidden[$0] }
        let userOrder = resolved.filter { !isHidden[$0] }
        var isOrdered = [Bool](repeating: false, count: count)
        for position in userOrder {
            isOrdered[position] = true
        }

        var slots = [Int?](repeating: nil, count: visible.count)
        var isPinned = [Bool](repeating: false, count: count)
        for (slot, position) in visible.enumerated() where plan.locked[position] || !isOrdered[position] {
            slots[Self.freeSlot(near: slot, in: slots)] = position
            isPinned[position] = true
        }
        var remaining = userOrder.filter { !isPinned[$0] }.makeIterator()
        for slot in slots.indices where slots[slot] == nil {
            slots[slot] = remaining.next()
        }

        self.order = slots.compactMap { $0 }
        self.hidden = hidden
        self.added = visible.filter { !isOrdered[$0] }.map { plan.shownIDs[$0] }
        self.dropped = dropped
        self.replaced = replaced
    }

    /// `index` if free, else the next free slot after it, else the nearest free one before it.
    private static func freeSlot(near index: Int, in slots: [Int?]) -> Int {
        if let after = slots[index...].firstIndex(where: { $0 == nil }) {
            return after
        }
        return slots[..<index].lastIndex(where: { $0 == nil }) ?? index
    }
}

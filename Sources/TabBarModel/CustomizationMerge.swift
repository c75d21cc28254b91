/// The DESIGN §4 merge of a saved customization into the shown top-level tabs. Deterministic.
///
/// 1. The saved order is resolved: ids gone from the config follow `replaces` (through hard-deprecated tabs too)
///    to the tab that takes their position, unless that tab is already in the saved order or already took one;
///    other gone ids are dropped; duplicates are skipped.
/// 2. Visible tabs are the shown ones minus the effectively hidden (hideable and present) ones.
/// 3. Locked tabs and tabs not in the resolved order (added) take their default slot among the visible tabs,
///    or the next free one after it, else the nearest free one before it.
/// 4. The user's remaining tabs fill the free slots in the user's order.
struct CustomizationMerge {
    /// Visible top-level tab ids in display order.
    let order: [String]
    /// Hidden ids that took effect, in saved order.
    let hidden: [String]
    let added: [String]
    let dropped: [String]
    let replaced: [String: String]

    /// - Parameters:
    ///   - tabs: all top-level tabs of the config, in default order.
    ///   - customization: the user's saved customization.
    init(tabs: [Tab], customization: Customization) {
        let shown = tabs.filter { $0.deprecated != .hard }
        let shownIDs = Set(shown.map(\.id))

        var replacement: [String: String] = [:]
        for tab in tabs {
            if let old = tab.replaces, replacement[old] == nil {
                replacement[old] = tab.id
            }
        }
        func successor(of id: String) -> String? {
            var current = id
            var visited: Set<String> = []
            while !shownIDs.contains(current) {
                guard visited.insert(current).inserted, let next = replacement[current] else {
                    return nil
                }
                current = next
            }
            return current
        }

        let savedShown = Set(customization.order.filter(shownIDs.contains))
        var resolved: [String] = []
        var taken: Set<String> = []
        var processed: Set<String> = []
        var dropped: [String] = []
        var replaced: [String: String] = [:]
        for id in customization.order where processed.insert(id).inserted {
            if shownIDs.contains(id) {
                if taken.insert(id).inserted {
                    resolved.append(id)
                }
            } else if let target = successor(of: id), !savedShown.contains(target), taken.insert(target).inserted {
                resolved.append(target)
                replaced[id] = target
            } else {
                dropped.append(id)
            }
        }

        let hideable = Set(shown.filter { $0.hideable == true }.map(\.id))
        var hidden: [String] = []
        for id in customization.hidden where hideable.contains(id) && !hidden.contains(id) {
            hidden.append(id)
        }
        let hiddenSet = Set(hidden)
        let visible = shown.filter { !hiddenSet.contains($0.id) }
        let userOrder = resolved.filter { !hiddenSet.contains($0) }
        let ordered = Set(userOrder)

        var slots = [String?](repeating: nil, count: visible.count)
        var pinned: Set<String> = []
        for (index, tab) in visible.enumerated() where tab.locked == true || !ordered.contains(tab.id) {
            let slot = Self.freeSlot(near: index, in: slots)
            slots[slot] = tab.id
            pinned.insert(tab.id)
        }
        var remaining = userOrder.filter { !pinned.contains($0) }.makeIterator()
        for index in slots.indices where slots[index] == nil {
            slots[index] = remaining.next()
        }

        self.order = slots.compactMap { $0 }
        self.hidden = hidden
        self.added = visible.map(\.id).filter { !ordered.contains($0) }
        self.dropped = dropped
        self.replaced = replaced
    }

    /// `index` if free, else the next free slot after it, else the nearest free one before it.
    private static func freeSlot(near index: Int, in slots: [String?]) -> Int {
        if let after = slots[index...].firstIndex(where: { $0 == nil }) {
            return after
        }
        return slots[..<index].lastIndex(where: { $0 == nil }) ?? index
    }
}

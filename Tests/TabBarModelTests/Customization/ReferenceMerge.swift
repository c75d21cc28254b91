@testable import TabBarModel

/// The merge as first written (sets rebuilt per call), kept as the oracle the optimized `CustomizationMerge` is
/// checked against.
struct ReferenceMerge {
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

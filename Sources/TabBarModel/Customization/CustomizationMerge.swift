/// The merge (docs/design/model.md, "The merge") of a saved customization into the shown top-level tabs. Deterministic.
///
/// 1. The saved order is resolved: ids gone from the config follow `replaces` (through hard-deprecated tabs too)
///    to the tab that takes their position, unless that tab is already in the saved order or already took one;
///    other gone ids are dropped; duplicates are skipped. Ids of tabs absent for the request (targeting), or
///    leading to one, take no part and are not reported.
/// 2. Visible tabs are the shown ones minus the effectively hidden (hideable and present) ones.
/// 3. Locked tabs and tabs not in the resolved order (added; the user's open tabs too, not reported) take their
///    default slot among the visible tabs, or the next free one after it, else the nearest free one before it.
/// 4. The user's remaining tabs fill the free slots in the user's order.
///
/// Works on indices into the plan's shown tabs, with flags instead of sets: it runs on every request for a
/// user's tab bar, and the lists are short (at most 50 saved ids).
struct CustomizationMerge {
    /// Visible top-level tabs in display order, as positions in the `MergePlan`.
    let order: [Int]
    /// Hidden ids that took effect, in saved order.
    let hidden: [String]
    let added: [String]
    let dropped: [String]
    let replaced: [String: String]

    /// Per shown tab, what the merge has learned of it so far.
    private struct Flags: OptionSet {
        let rawValue: UInt8
        /// In the saved order as itself.
        static let savedShown = Flags(rawValue: 1)
        /// Has its place in the resolved saved order.
        static let taken = Flags(rawValue: 2)
        /// Effectively hidden.
        static let hidden = Flags(rawValue: 4)
        /// Visible and in the resolved saved order.
        static let ordered = Flags(rawValue: 8)
        /// Locked or added: placed at its default slot.
        static let pinned = Flags(rawValue: 16)
    }

    init(plan: MergePlan, customization: Customization) {
        let count = plan.count
        var flags = [Flags](repeating: [], count: count)
        // Each saved id's shown index, or -1 for one gone from the config: looked up once.
        let positions = customization.order.map { plan.position(of: $0) ?? -1 }
        for position in positions where position >= 0 {
            flags[position].insert(.savedShown)
        }
        var resolved: [Int] = []
        resolved.reserveCapacity(count)
        var goneSeen: [String] = []
        var dropped: [String] = []
        var replaced: [String: String] = [:]
        for (id, position) in zip(customization.order, positions) {
            if position >= 0 {
                if !flags[position].contains(.taken) {
                    flags[position].insert(.taken)
                    resolved.append(position)
                }
                continue
            }
            guard !goneSeen.contains(id) else { continue }
            goneSeen.append(id)
            switch plan.successor(of: id) {
            case .shown(let target) where flags[target].isDisjoint(with: [.savedShown, .taken]):
                flags[target].insert(.taken)
                resolved.append(target)
                replaced[id] = plan.id(at: target)
            case .absent:
                continue
            case .shown, .none:
                dropped.append(id)
            }
        }

        var hidden: [String] = []
        for id in customization.hidden {
            if let position = plan.position(of: id), plan.isHideable(position), !flags[position].contains(.hidden) {
                flags[position].insert(.hidden)
                hidden.append(id)
            }
        }
        for position in resolved where !flags[position].contains(.hidden) {
            flags[position].insert(.ordered)
        }

        // Slots are the visible tabs' places in display order; -1 is a free slot.
        var visibleCount = 0
        var added: [String] = []
        for position in 0..<count where !flags[position].contains(.hidden) {
            visibleCount += 1
            if !flags[position].contains(.ordered), position < plan.staticCount {
                added.append(plan.id(at: position))
            }
        }
        var slots = [Int](repeating: -1, count: visibleCount)
        var slot = 0
        for position in 0..<count where !flags[position].contains(.hidden) {
            if plan.isLocked(position) || !flags[position].contains(.ordered) {
                slots[Self.freeSlot(near: slot, in: slots)] = position
                flags[position].insert(.pinned)
            }
            slot += 1
        }
        var remaining = resolved.lazy.filter { flags[$0].isDisjoint(with: [.hidden, .pinned]) }.makeIterator()
        for index in slots.indices where slots[index] < 0 {
            slots[index] = remaining.next() ?? -1
        }

        slots.removeAll { $0 < 0 }
        self.order = slots
        self.hidden = hidden
        self.added = added
        self.dropped = dropped
        self.replaced = replaced
    }

    /// `index` if free, else the next free slot after it, else the nearest free one before it.
    private static func freeSlot(near index: Int, in slots: [Int]) -> Int {
        if let after = slots[index...].firstIndex(where: { $0 < 0 }) {
            return after
        }
        return slots[..<index].lastIndex(where: { $0 < 0 }) ?? index
    }
}

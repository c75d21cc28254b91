/// What the customization merge needs of a config, computed once per config: the shown top-level tabs by index,
/// how their ids are found, what replaces what, and which tabs are hideable or locked.
public struct MergePlan: Sendable {
    /// Ids of the shown top-level tabs (not hard-deprecated, not absent for the request), in default order.
    public let shownIDs: [String]
    /// Ids of the tabs targeting leaves out of the request: they take no part in the merge.
    let absent: Set<String>
    /// Shown id → its index in `shownIDs` (the first, should an id repeat).
    let index: [String: Int]
    /// Old id → the id of the first tab (shown or not) that declares it `replaces`.
    let replacement: [String: String]
    /// By shown index: hideable.
    let hideable: [Bool]
    /// By shown index: locked.
    let locked: [Bool]

    /// The plan of `tabs`, a config's top-level tabs in default order, for a request that lacks the `absent` ones.
    init(tabs: [Tab], absent: Set<String> = []) {
        self.absent = absent
        let shown = tabs.filter { $0.deprecated != .hard && !absent.contains($0.id) }
        shownIDs = shown.map(\.id)
        var index: [String: Int] = [:]
        for (position, id) in shownIDs.enumerated() where index[id] == nil {
            index[id] = position
        }
        self.index = index
        var replacement: [String: String] = [:]
        for tab in tabs {
            if let old = tab.replaces, replacement[old] == nil {
                replacement[old] = tab.id
            }
        }
        self.replacement = replacement
        hideable = shown.map { $0.hideable == true }
        locked = shown.map { $0.locked == true }
    }

    /// Where an id of a saved order leads.
    enum Successor {
        /// To the shown tab at this index.
        case shown(Int)
        /// To a tab absent for this request: the id stays stored and takes no part.
        case absent
        /// Nowhere: the id is dropped.
        case none
    }

    /// The shown tab an id resolves to: itself if shown, else following `replaces` (through tabs not shown).
    func successor(of id: String) -> Successor {
        var current = id
        var visited: [String] = []
        while true {
            if let position = index[current] {
                return .shown(position)
            }
            if absent.contains(current) {
                return .absent
            }
            guard !visited.contains(current), let next = replacement[current] else {
                return .none
            }
            visited.append(current)
            current = next
        }
    }
}

extension MergePlan {
    /// The top-level tabs in display order for `saved` (default order for `nil`, `.none` and `.undecodable`), as
    /// indices into `shownIDs`, and the summary `resolve` reports for it: the merge alone, nothing localized.
    public func userOrder(_ saved: SavedCustomization?) -> (order: [Int], summary: CustomizationSummary?) {
        switch saved {
        case nil:
            return (Array(shownIDs.indices), nil)
        case .some(.none):
            return (Array(shownIDs.indices), CustomizationSummary(source: "default", revision: 0))
        case .some(.undecodable(let revision)):
            return (Array(shownIDs.indices), CustomizationSummary(source: "default", revision: revision))
        case .some(.saved(let customization, let revision)):
            let merge = CustomizationMerge(plan: self, customization: customization)
            let summary = CustomizationSummary(
                source: "user",
                revision: revision,
                hidden: merge.hidden,
                added: merge.added,
                dropped: merge.dropped,
                replaced: merge.replaced
            )
            return (merge.order, summary)
        }
    }
}

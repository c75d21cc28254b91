/// What the customization merge needs of a config, computed once per config: the shown top-level tabs by index,
/// how their ids are found, what replaces what, and which tabs are hideable or locked. For a user with open tabs,
/// ``including(_:)`` appends those after the config's.
public struct MergePlan: Sendable {
    /// Ids of the shown top-level tabs (not hard-deprecated, not absent for the request), in default order, then the
    /// user's open tabs (``including(_:)``).
    public private(set) var shownIDs: [String]
    /// How many of `shownIDs` are the config's tabs; the rest are ``dynamicTabs``.
    public let staticCount: Int
    /// The user's open tabs whose template the config has, after the config's tabs in `shownIDs`.
    public private(set) var dynamicTabs: [DynamicTab]
    /// Ids of the config's templates.
    let templates: Set<String>
    /// Ids of the tabs targeting leaves out of the request, and of open tabs whose template is gone: they take no
    /// part in the merge.
    private(set) var absent: Set<String>
    /// Shown id → its index in `shownIDs` (the first, should an id repeat).
    private(set) var index: [String: Int]
    /// Old id → the id of the first tab (shown or not) that declares it `replaces`.
    let replacement: [String: String]
    /// By shown index: hideable.
    private(set) var hideable: [Bool]
    /// By shown index: locked.
    private(set) var locked: [Bool]

    /// The plan of `tabs`, a config's top-level tabs in default order, for a request that lacks the `absent` ones;
    /// `templates` are the ids of the config's templates.
    init(tabs: [Tab], absent: Set<String> = [], templates: Set<String> = []) {
        self.absent = absent
        self.templates = templates
        let shown = tabs.filter { $0.deprecated != .hard && !absent.contains($0.id) }
        shownIDs = shown.map(\.id)
        staticCount = shownIDs.count
        dynamicTabs = []
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

    /// This plan for a user with `openTabs`: those whose template the config has follow the config's tabs (in the
    /// order they were opened, hideable, never locked); those whose template is gone are absent (they take no part,
    /// and come back with their template).
    public func including(_ openTabs: [DynamicTab]) -> MergePlan {
        guard !openTabs.isEmpty else { return self }
        var plan = self
        for tab in openTabs {
            let id = tab.id
            guard templates.contains(tab.template) else {
                plan.absent.insert(id)
                continue
            }
            guard plan.index[id] == nil else { continue }
            plan.index[id] = plan.shownIDs.count
            plan.shownIDs.append(id)
            plan.dynamicTabs.append(tab)
            plan.hideable.append(true)
            plan.locked.append(false)
        }
        return plan
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
    /// indices into `shownIDs` of the plan including the user's open tabs (``including(_:)``, returned as `plan`),
    /// and the summary `resolve` reports for it: the merge alone, nothing localized. Open tabs whose template is gone
    /// are reported as dropped, after the saved ids that are.
    public func userOrder(
        _ saved: SavedCustomization?
    ) -> (order: [Int], summary: CustomizationSummary?, plan: MergePlan) {
        switch saved {
        case nil:
            return (Array(shownIDs.indices), nil, self)
        case .some(.none):
            return (Array(shownIDs.indices), CustomizationSummary(source: "default", revision: 0), self)
        case .some(.undecodable(let revision)):
            return (Array(shownIDs.indices), CustomizationSummary(source: "default", revision: revision), self)
        case .some(.saved(let customization, let revision)):
            let plan = including(customization.dynamicTabs)
            let merge = CustomizationMerge(plan: plan, customization: customization)
            var dropped = merge.dropped
            for tab in customization.dynamicTabs where !templates.contains(tab.template) {
                dropped.append(tab.id)
            }
            let summary = CustomizationSummary(
                source: "user",
                revision: revision,
                hidden: merge.hidden,
                added: merge.added,
                dropped: dropped,
                replaced: merge.replaced
            )
            return (merge.order, summary, plan)
        }
    }
}

/// What the customization merge needs of a config, computed once per config: the shown top-level tabs by position,
/// how their ids are found, what replaces what, and which tabs are hideable or locked. For a user with open tabs,
/// ``including(_:)`` appends those after the config's.
///
/// A user's plan shares the config's tables and adds two short arrays: it is made on every request for the tab bar
/// of a user with open tabs, and copying the tables cost more than the merge
/// (Benchmarks/results/reads/unknown-unknown-user-5-open.md).
/// Open tabs are found by a scan of their ids: a user has a few, and the config's tabs, found by hash, have no
/// colon in their ids.
public struct MergePlan: Sendable {
    /// Ids of the config's shown top-level tabs (not hard-deprecated, not absent for the request), in default order;
    /// the user's open tabs follow them (``id(at:)``).
    private let staticIDs: [String]
    /// The user's open tabs whose template the config has, shown after the config's tabs.
    public private(set) var dynamicTabs: [DynamicTab]
    /// Ids of the config's templates.
    let templates: [String]
    /// Ids of the tabs targeting leaves out of the request: they take no part in the merge.
    private let absent: Set<String>
    /// Ids of open tabs whose template is gone: they take no part either, and come back with their template.
    public private(set) var absentOpenTabs: [String]
    /// Ids of the templates the request's build cannot open.
    private let absentTemplates: Set<String>
    /// Ids of open tabs of those templates: they take no part, are not dropped, and come back on a build that has
    /// their template's screen.
    public private(set) var unopenableOpenTabs: [String]
    /// Id of a config's shown tab → its position (the first, should an id repeat).
    private let index: [String: Int]
    /// Old id → the id of the first tab (shown or not) that declares it `replaces`.
    let replacement: [String: String]
    /// By position among the config's shown tabs: hideable (open tabs always are).
    private let hideable: [Bool]
    /// By position among the config's shown tabs: locked (open tabs never are).
    private let locked: [Bool]

    /// The plan of `tabs`, a config's top-level tabs in default order, for a request that lacks the `absent` ones;
    /// `templates` are the ids of the config's templates, of which the request's build cannot open the
    /// `absentTemplates`.
    init(tabs: [Tab], absent: Set<String> = [], templates: [String] = [], absentTemplates: Set<String> = []) {
        self.absent = absent
        self.templates = templates
        self.absentTemplates = absentTemplates
        unopenableOpenTabs = []
        let shown = tabs.filter { $0.deprecated != .hard && !absent.contains($0.id) }
        staticIDs = shown.map(\.id)
        dynamicTabs = []
        absentOpenTabs = []
        var index: [String: Int] = [:]
        for (position, id) in staticIDs.enumerated() where index[id] == nil {
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

    /// How many of the shown tabs are the config's; the rest are ``dynamicTabs``.
    public var staticCount: Int {
        staticIDs.count
    }

    /// How many tabs are shown: the config's, then the open ones.
    public var count: Int {
        staticIDs.count + dynamicTabs.count
    }

    /// The id of the shown tab at `position`.
    public func id(at position: Int) -> String {
        position < staticIDs.count ? staticIDs[position] : dynamicTabs[position - staticIDs.count].id
    }

    /// The position of the shown tab with this id (the first, should an id repeat); nil when no shown tab has it.
    public func position(of id: String) -> Int? {
        if let position = index[id] {
            return position
        }
        return dynamicTabs.firstIndex { $0.id == id }.map { staticIDs.count + $0 }
    }

    /// Whether the user may hide the shown tab at `position`.
    func isHideable(_ position: Int) -> Bool {
        position >= staticIDs.count || hideable[position]
    }

    /// Whether the shown tab at `position` keeps its default slot.
    func isLocked(_ position: Int) -> Bool {
        position < staticIDs.count && locked[position]
    }

    /// Whether `id` is a tab absent for this request, or an open tab whose template is gone.
    func isAbsent(_ id: String) -> Bool {
        absent.contains(id) || absentOpenTabs.contains(id) || unopenableOpenTabs.contains(id)
    }

    /// This plan for a user with `openTabs`: those whose template the config has follow the config's tabs (in the
    /// order they were opened, hideable, never locked); those whose template is gone, or which the request's build
    /// cannot open, are absent (they take no part, and come back with their template). Names are unique among a user's open tabs (opening is idempotent by
    /// name), and so are their ids.
    public func including(_ openTabs: [DynamicTab]) -> MergePlan {
        guard !openTabs.isEmpty else { return self }
        var plan = self
        plan.dynamicTabs.reserveCapacity(openTabs.count)
        for tab in openTabs {
            if absentTemplates.contains(tab.template) {
                plan.unopenableOpenTabs.append(tab.id)
            } else if templates.contains(tab.template) {
                plan.dynamicTabs.append(tab)
            } else {
                plan.absentOpenTabs.append(tab.id)
            }
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
            if let position = position(of: current) {
                return .shown(position)
            }
            if isAbsent(current) {
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
    /// The top-level tabs in display order for `saved` (default order for `nil`, `.none`, `.undecodable` and a
    /// saved customization that holds nothing, as a reset leaves it: each reported as source "default"), as
    /// positions in the plan including the user's open tabs (``including(_:)``, returned as `plan`),
    /// and the summary `resolve` reports for it: the merge alone, nothing localized. Open tabs whose template is gone
    /// are reported as dropped, after the saved ids that are.
    public func userOrder(
        _ saved: SavedCustomization?
    ) -> (order: [Int], summary: CustomizationSummary?, plan: MergePlan) {
        switch saved {
        case nil:
            return (Array(0..<count), nil, self)
        case .some(.none):
            return (Array(0..<count), CustomizationSummary(source: "default", revision: 0), self)
        case .some(.undecodable(let revision)):
            return (Array(0..<count), CustomizationSummary(source: "default", revision: revision), self)
        case .some(.saved(let customization, let revision)) where customization.isEmpty:
            return (Array(0..<count), CustomizationSummary(source: "default", revision: revision), self)
        case .some(.saved(let customization, let revision)):
            let plan = including(customization.dynamicTabs)
            let merge = CustomizationMerge(plan: plan, customization: customization)
            let dropped = merge.dropped + plan.absentOpenTabs
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

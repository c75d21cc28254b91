extension TabBar {
    /// This tab bar as the user arranged it on the device: what to show while a save is pending or offline. It
    /// mirrors the service's merge (docs/design/model.md, "The merge"), so that the service's answer after saving
    /// `state` shows the same tabs in the same places.
    ///
    /// - Hidden: a tab of this bar that `state` hides is removed when it is ``Tab/hideable``, locked or not. Hiding
    ///   any other tab is ignored, as the service's merge ignores it (a save refuses it). ``Customization/hidden``
    ///   lists the tabs `state` hides that are hidden in the result, in `state`'s order (those this bar already hid
    ///   included).
    /// - Pinned: a ``Tab/locked`` tab, and a tab that `state.order` does not list (the service places a tab the
    ///   saved order lacks at its default slot, as it places a locked one), keeps its slot: its index among the
    ///   tabs that stay visible, that is its index in ``tabs`` less the tabs before it that `state` hides.
    /// - Ordered: the other tabs fill the remaining slots in `state.order`'s order. Ids that are not tabs of this bar
    ///   are ignored, and an id listed twice counts where it is first listed.
    /// - Placement: recomputed as the service does it: every tab in the bar when they are at most
    ///   ``maxVisibleTabs``, else the first `maxVisibleTabs − 1` in the bar and the rest under "More".
    ///
    /// A tab that this bar hides (it is not in ``tabs``) and that `state` shows cannot be drawn from this bar: it is
    /// left out of the result and of its hidden tabs, and appears with the next tab bar the service answers. The
    /// result always has a ``customization``, `user`'s: this one's revision (0 for a bar without one), the hidden
    /// tabs above, as ``Customization/added`` the visible tabs `state.order` does not list (tabs the user opened
    /// excepted, as the service reports them), and nothing dropped or replaced, as the service answers after a save
    /// of `state`. A `state` that names no tab of this bar, on a bar with no open tab, leaves the service nothing to
    /// keep (a reset is one): the service reports it as `default`, nothing added, and so does the result.
    ///
    /// The service places pinned tabs by the config's default order, which a user's tab bar does not give. So the
    /// result is the service's answer exactly when this bar is in the default order (a user who never saved), or when
    /// `state` lists every tab of this bar and hides what this bar hid (a rearrangement made on it, as
    /// ``TabBarPresenter/edit(reorderedTo:)`` gives); otherwise a pinned tab may end a few places from where the
    /// service will put it.
    ///
    /// ```swift
    /// // The user moved "profile" first and hid "downloads"; the save is under way.
    /// let pending = served.applying(TabOrderState(order: ["profile", "home", "search"], hidden: ["downloads"]))
    /// ```
    public func applying(_ state: TabOrderState) -> TabBar {
        let requestedHidden = Set(state.hidden)
        let visible = tabs.filter { !($0.hideable && requestedHidden.contains($0.id)) }
        var rank: [String: Int] = [:]
        for (index, id) in state.order.enumerated() where rank[id] == nil {
            rank[id] = index
        }
        var slots: [Tab?] = visible.map { $0.locked || rank[$0.id] == nil ? $0 : nil }
        var next = visible
            .compactMap { tab in tab.locked ? nil : rank[tab.id].map { (tab, $0) } }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
            .makeIterator()
        for index in slots.indices where slots[index] == nil {
            slots[index] = next.next()
        }
        var result = self
        result.tabs = slots.compactMap { $0 }.enumerated().map { index, tab in
            var tab = tab
            tab.placement = Self.placement(at: index, count: visible.count, maxVisibleTabs: maxVisibleTabs)
            return tab
        }
        let removed = Set(tabs.map(\.id)).subtracting(visible.map(\.id))
        let hiddenBefore = Set(customization?.hidden ?? [])
        var summary = customization ?? Customization(source: .user, revision: 0)
        summary.source = .user
        summary.hidden = Self.distinct(state.hidden.filter { removed.contains($0) || hiddenBefore.contains($0) })
        summary.added = visible.filter { rank[$0.id] == nil && $0.dynamic == nil }.map(\.id)
        summary.dropped = []
        summary.replaced = [:]
        let known = Set(tabs.map(\.id)).union(customization?.hidden ?? [])
        if !(state.order + state.hidden).contains(where: known.contains), !tabs.contains(where: { $0.dynamic != nil }) {
            // Nothing the service keeps (a reset, or only ids it ignores): it reports the default order, nothing added.
            summary.source = .default
            summary.added = []
        }
        result.customization = summary
        return result
    }

    /// Where the top-level tab at `index` of `count` shows in a bar of `maxVisibleTabs`, by the service's rule: all
    /// in the bar when they fit, else the first `maxVisibleTabs − 1` and a "More" tab.
    static func placement(at index: Int, count: Int, maxVisibleTabs: Int) -> Placement {
        count <= maxVisibleTabs || index < maxVisibleTabs - 1 ? .bar : .more
    }

    /// `ids` without repeats, each where it is first listed.
    private static func distinct(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}

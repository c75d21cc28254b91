extension TabBarConfig {
    /// The layout a request with `outcome` gets (docs/design/model.md, "Resolving a tab bar"): hard-deprecated and
    /// absent tabs left out, the variation's order, `maxVisibleTabs`, `initialTab` and `appearance` applied. An
    /// `initialTab` that is not shown falls back to the first enabled shown tab.
    public func layout(for outcome: TargetingOutcome) -> TabBarLayout {
        let absent = outcome.absentIDs
        let variation = outcome.experimentIndex.flatMap { experiments?[$0].variations[outcome.experiment?.variation ?? 0] }
        var ordered = tabs
        if let order = variation?.order {
            let listed = order.compactMap { id in tabs.first { $0.id == id } }
            ordered = listed + tabs.filter { !order.contains($0.id) }
        }
        let plan = MergePlan(
            tabs: ordered, absent: absent, templates: (tabTemplates ?? []).map(\.id),
            absentTemplates: outcome.absentTemplates)
        let shown = ordered.filter { $0.deprecated != .hard && !absent.contains($0.id) }.map { tab in
            Self.withShownChildren(tab, absent: absent)
        }
        let preferred = variation?.initialTab ?? initialTab
        let initial =
            shown.first { $0.id == preferred && $0.enabled != false }?.id
            ?? shown.first { $0.enabled != false }?.id ?? shown.first?.id ?? ""
        return TabBarLayout(
            tabs: shown,
            maxVisibleTabs: variation?.maxVisibleTabs ?? effectiveMaxVisibleTabs,
            initialTab: initial,
            appearance: variation?.appearance ?? appearance,
            experiment: outcome.experiment,
            plan: plan)
    }

    /// The tab with only its shown descendants.
    private static func withShownChildren(_ tab: Tab, absent: Set<String>) -> Tab {
        guard let children = tab.children else { return tab }
        var copy = tab
        copy.children = children.filter { $0.deprecated != .hard && !absent.contains($0.id) }.map {
            withShownChildren($0, absent: absent)
        }
        return copy
    }
}

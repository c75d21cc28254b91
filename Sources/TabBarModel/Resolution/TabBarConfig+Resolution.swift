extension TabBarConfig {
    /// The tab bar an app receives (docs/design/model.md, "Resolving a tab bar"): the layout of the targeting
    /// `outcome`, localized for `locale`, placement computed. `saved == nil` gives the default tab bar (no
    /// `customization` in the result); otherwise the user variant, merged when `.saved` (source "user") and in
    /// default order for `.none`, `.undecodable` and an empty saved customization (source "default").
    public func resolve(
        client: String, version: Int, locale: String, saved: SavedCustomization?,
        outcome: TargetingOutcome = .everything
    ) -> ResolvedTabBar {
        resolve(layout(for: outcome), client: client, version: version, locale: locale, saved: saved)
    }

    /// `resolve(client:version:locale:saved:outcome:)` for a layout computed beforehand.
    public func resolve(
        _ layout: TabBarLayout, client: String, version: Int, locale: String, saved: SavedCustomization?
    ) -> ResolvedTabBar {
        let (order, summary, plan) = layout.plan.userOrder(saved)
        let resolvedTabs = order.enumerated().map { index, position in
            var resolved =
                position < plan.staticCount
                ? Self.resolvedTab(layout.tabs[position], locale: locale, topLevel: true)
                : resolvedTab(plan.dynamicTabs[position - plan.staticCount], locale: locale)
            resolved.placement =
                Self.isInBar(index: index, count: order.count, maxVisibleTabs: layout.maxVisibleTabs) ? .bar : .more
            return resolved
        }
        return ResolvedTabBar(
            client: client,
            version: version,
            locale: locale,
            maxVisibleTabs: layout.maxVisibleTabs,
            initialTab: layout.initialTab,
            appearance: layout.appearance,
            tabs: resolvedTabs,
            customization: summary,
            experiment: layout.experiment
        )
    }

    /// What the merge needs of this config; compute it once and ask it for `userOrder(_:)`.
    public var mergePlan: MergePlan {
        MergePlan(tabs: tabs, templates: (tabTemplates ?? []).map(\.id))
    }

    /// Whether the tab at `index` of `count` top-level tabs shows in the bar (else under "More").
    public func isInBar(index: Int, count: Int) -> Bool {
        Self.isInBar(index: index, count: count, maxVisibleTabs: effectiveMaxVisibleTabs)
    }

    /// Whether the tab at `index` of `count` top-level tabs shows in a bar of `maxVisibleTabs`: all of them when
    /// they fit, else the first `maxVisibleTabs - 1` and a "More" tab.
    public static func isInBar(index: Int, count: Int, maxVisibleTabs: Int) -> Bool {
        count <= maxVisibleTabs || index < maxVisibleTabs - 1
    }

    /// A tab the user opened, as its template resolves it: the tab's own title or the template's localized one, the
    /// template's icon, its destination with the tab's parameters added (theirs win), hideable, never locked.
    /// Placement is the caller's. The template must be in the config (``MergePlan/including(_:)`` keeps only those).
    public func resolvedTab(_ tab: DynamicTab, locale: String) -> ResolvedTab {
        guard let template = template(tab.template) else {
            preconditionFailure("an open tab of a template the config lacks was resolved")
        }
        var destination = template.destination
        if !tab.parameters.isEmpty {
            destination.parameters = (destination.parameters ?? [:]).merging(tab.parameters) { $1 }
        }
        return ResolvedTab(
            id: tab.id,
            title: tab.title ?? template.title.text(for: locale),
            titleKey: tab.title == nil ? template.title.key : nil,
            icon: template.icon,
            destination: destination,
            hideable: true,
            dynamic: ResolvedTab.Dynamic(template: tab.template, name: tab.name)
        )
    }

    private static func resolvedTab(_ tab: Tab, locale: String, topLevel: Bool) -> ResolvedTab {
        let children = (tab.children ?? []).map { resolvedTab($0, locale: locale, topLevel: false) }
        return ResolvedTab(
            id: tab.id,
            title: tab.title.text(for: locale),
            titleKey: tab.title.key,
            icon: tab.icon,
            destination: tab.destination,
            badge: tab.badge,
            enabled: tab.enabled ?? true,
            locked: topLevel && tab.locked == true,
            hideable: topLevel && tab.hideable == true,
            deprecated: tab.deprecated,
            placement: nil,
            children: children.isEmpty ? nil : children
        )
    }
}

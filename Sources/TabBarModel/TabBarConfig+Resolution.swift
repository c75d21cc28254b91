extension TabBarConfig {
    /// The tab bar an app receives (docs/ARCHITECTURE.md, "Resolving a tab bar"): localized for `locale`, hard-deprecated tabs left out, placement
    /// computed. `saved == nil` gives the default tab bar (no `customization` in the result); otherwise the user
    /// variant, merged when `.saved` (source "user") and in default order for `.none` / `.undecodable`
    /// (source "default").
    public func resolve(client: String, version: Int, locale: String, saved: SavedCustomization?) -> ResolvedTabBar {
        let shown = shownTabs
        let (order, summary) = mergePlan.userOrder(saved)
        let orderedTabs = order.map { shown[$0] }
        let maxVisible = effectiveMaxVisibleTabs
        let resolvedTabs = orderedTabs.enumerated().map { index, tab in
            var resolved = Self.resolvedTab(tab, locale: locale, topLevel: true)
            resolved.placement = isInBar(index: index, count: orderedTabs.count) ? .bar : .more
            return resolved
        }
        return ResolvedTabBar(
            client: client,
            version: version,
            locale: locale,
            maxVisibleTabs: maxVisible,
            initialTab: effectiveInitialTab,
            appearance: appearance,
            tabs: resolvedTabs,
            customization: summary
        )
    }

    /// What the merge needs of this config; compute it once and ask it for `userOrder(_:)`.
    public var mergePlan: MergePlan {
        MergePlan(tabs: tabs)
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

    private static func resolvedTab(_ tab: Tab, locale: String, topLevel: Bool) -> ResolvedTab {
        let children = (tab.children ?? [])
            .filter { $0.deprecated != .hard }
            .map { resolvedTab($0, locale: locale, topLevel: false) }
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

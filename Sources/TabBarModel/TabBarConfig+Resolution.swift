extension TabBarConfig {
    /// The tab bar an app receives (DESIGN §4): localized for `locale`, hard-deprecated tabs left out, placement
    /// computed. `saved == nil` gives the default tab bar (no `customization` in the result); otherwise the user
    /// variant, merged when `.saved` (source "user") and in default order for `.none` / `.undecodable`
    /// (source "default").
    public func resolve(client: String, version: Int, locale: String, saved: SavedCustomization?) -> ResolvedTabBar {
        let shown = shownTabs
        var orderedTabs = shown
        var summary: CustomizationSummary?
        switch saved {
        case nil:
            summary = nil
        case .some(.none):
            summary = CustomizationSummary(source: "default", revision: 0)
        case .some(.undecodable(let revision)):
            summary = CustomizationSummary(source: "default", revision: revision)
        case .some(.saved(let customization, let revision)):
            let merge = CustomizationMerge(tabs: tabs, customization: customization)
            let byID = Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            orderedTabs = merge.order.compactMap { byID[$0] }
            summary = CustomizationSummary(
                source: "user",
                revision: revision,
                hidden: merge.hidden,
                added: merge.added,
                dropped: merge.dropped,
                replaced: merge.replaced
            )
        }
        let maxVisible = effectiveMaxVisibleTabs
        let overflow = orderedTabs.count > maxVisible
        let resolvedTabs = orderedTabs.enumerated().map { index, tab in
            var resolved = Self.resolvedTab(tab, locale: locale, topLevel: true)
            resolved.placement = !overflow || index < maxVisible - 1 ? .bar : .more
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

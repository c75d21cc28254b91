extension TabBar {
    /// The bar as `state` orders it, as the service would answer once it stored the state: tabs in the state's
    /// order (tabs it does not name keep their relative order after them), hidden ones left out, and the
    /// placements recomputed (every tab in the bar when they fit in ``maxVisibleTabs``, else the first
    /// `maxVisibleTabs - 1`, the rest under "More"). A tab the state shows again but the bar lacks (the service
    /// left it out as hidden) cannot be shown until the service answers.
    func showingPendingOrder(_ state: TabOrderState) -> TabBar {
        let hidden = Set(state.hidden)
        var byID: [String: Tab] = [:]
        for tab in tabs where byID[tab.id] == nil { byID[tab.id] = tab }
        var ordered: [Tab] = []
        var placed: Set<String> = []
        for id in state.order where !hidden.contains(id) && !placed.contains(id) {
            guard let tab = byID[id] else { continue }
            ordered.append(tab)
            placed.insert(id)
        }
        ordered += tabs.filter { !placed.contains($0.id) && !hidden.contains($0.id) }
        let inBar = ordered.count <= maxVisibleTabs ? ordered.count : max(maxVisibleTabs - 1, 0)
        for index in ordered.indices {
            ordered[index].placement = index < inBar ? .bar : .more
        }
        var result = self
        result.tabs = ordered
        result.customization?.hidden = state.hidden
        return result
    }
}

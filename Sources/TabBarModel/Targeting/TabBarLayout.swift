/// The tab bar one targeting outcome gives, before localization and before a user's order: the top-level tabs that
/// exist for the request in their default order (the experiment variation's, if it sets one), children that exist
/// likewise, and the document fields the variation overrides.
public struct TabBarLayout: Sendable {
    /// Shown top-level tabs in default order; their `children` hold only shown children.
    public let tabs: [Tab]
    /// Tabs in the bar before "More".
    public let maxVisibleTabs: Int
    /// The tab selected at launch.
    public let initialTab: String
    /// Colours and background of the bar.
    public let appearance: Appearance?
    /// The experiment and variation the layout comes from.
    public let experiment: ExperimentAssignment?
    /// What the merge of a user's order needs of this layout.
    public let plan: MergePlan
}

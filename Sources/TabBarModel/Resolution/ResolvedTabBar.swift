import Foundation

/// What an app receives: the live config localized for one locale, optionally merged with a user's customization.
public struct ResolvedTabBar: Codable, Sendable, Equatable {
    /// The client id.
    public var client: String
    /// The config version resolved.
    public var version: Int
    /// The locale used for titles.
    public var locale: String
    /// Tabs in the bar before "More".
    public var maxVisibleTabs: Int
    /// The tab selected at launch.
    public var initialTab: String
    /// Colours and background of the bar.
    public var appearance: Appearance?
    /// Top-level tabs in display order.
    public var tabs: [ResolvedTab]
    /// How the user's customization was merged; only in the user variant.
    public var customization: CustomizationSummary?
    /// The experiment and variation this answer belongs to, for the app to report the exposure.
    public var experiment: ExperimentAssignment?

    /// Creates a resolved tab bar.
    public init(
        client: String,
        version: Int,
        locale: String,
        maxVisibleTabs: Int,
        initialTab: String,
        appearance: Appearance? = nil,
        tabs: [ResolvedTab],
        customization: CustomizationSummary? = nil,
        experiment: ExperimentAssignment? = nil
    ) {
        self.client = client
        self.version = version
        self.locale = locale
        self.maxVisibleTabs = maxVisibleTabs
        self.initialTab = initialTab
        self.appearance = appearance
        self.tabs = tabs
        self.customization = customization
        self.experiment = experiment
    }

    /// Compact canonical JSON (sorted keys, slashes unescaped), ready to send.
    public func encoded() -> Data {
        CanonicalJSON.encode(self)
    }
}

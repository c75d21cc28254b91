/// A resolved tab bar as the service answers it: `GET /v1/clients/{client}/tabs` (the default order) or
/// `GET /v1/clients/{client}/users/{user}/tabs` (with the user's saved order merged in, and ``customization``).
///
/// Unknown members are ignored when decoding, so an app in the field keeps working when the service adds some.
public struct TabBar: Codable, Sendable, Hashable {
    /// The client (app flavour) id.
    public var client: String
    /// The config version the answer was resolved from.
    public var version: Int
    /// The locale the titles were resolved in.
    public var locale: String
    /// How many tabs the bar shows before "More" takes the last slot.
    public var maxVisibleTabs: Int
    /// The id of the tab selected at launch.
    public var initialTab: String
    /// Colours and background of the bar.
    public var appearance: Appearance?
    /// The top-level tabs in order, each with its ``Tab/placement``.
    public var tabs: [Tab]
    /// What became of the user's saved order; present on a user's tab bar only.
    public var customization: Customization?
    /// The experiment and variation this answer belongs to, for the app's exposure analytics.
    public var experiment: Experiment?

    /// A tab bar; the service makes them, apps make one for their bundled default.
    public init(
        client: String, version: Int, locale: String, maxVisibleTabs: Int, initialTab: String,
        appearance: Appearance? = nil, tabs: [Tab], customization: Customization? = nil,
        experiment: Experiment? = nil
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
}

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

extension TabBar {
    /// The experiment an answer belongs to and its variation (0 is the control).
    public struct Experiment: Codable, Sendable, Hashable {
        /// The experiment's key.
        public var key: String
        /// The variation: 0 is the control.
        public var variation: Int

        /// A value with the given members.
        public init(key: String, variation: Int) {
            self.key = key
            self.variation = variation
        }
    }
}

extension TabBar {
    /// A tab's images, as names of images the app bundles.
    public struct Icon: Codable, Sendable, Hashable {
        /// The image shown normally.
        public var image: String
        /// The image shown while the tab is selected, if it differs.
        public var selectedImage: String?

        /// A value with the given members.
        public init(image: String, selectedImage: String? = nil) {
            self.image = image
            self.selectedImage = selectedImage
        }
    }
}

extension TabBar {
    /// Colours (`#RRGGBB` or `#RRGGBBAA`) and background image of the bar.
    public struct Appearance: Codable, Sendable, Hashable {
        /// The name of an image the app bundles, drawn behind the bar.
        public var backgroundImage: String?
        /// The bar's tint.
        public var tintColor: String?
        /// The tint of the selected item.
        public var selectedTintColor: String?
        /// The tint of the other items.
        public var unselectedTintColor: String?

        /// A value with the given members.
        public init(
            backgroundImage: String? = nil, tintColor: String? = nil, selectedTintColor: String? = nil,
            unselectedTintColor: String? = nil
        ) {
            self.backgroundImage = backgroundImage
            self.tintColor = tintColor
            self.selectedTintColor = selectedTintColor
            self.unselectedTintColor = unselectedTintColor
        }
    }
}

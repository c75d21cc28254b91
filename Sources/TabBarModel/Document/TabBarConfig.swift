/// The source document an admin publishes for one client (docs/design/model.md, "The config document").
public struct TabBarConfig: Codable, Sendable, Hashable {
    /// Top-level tabs in their default order.
    public var tabs: [Tab]
    /// How many tabs fit in the bar before the rest go to "More" (2…10, default 5).
    public var maxVisibleTabs: Int?
    /// The id of the tab selected at launch (default: the first enabled top-level tab).
    public var initialTab: String?
    /// Whether users may reorder and hide tabs (default true).
    public var userCustomizable: Bool?
    /// The BCP 47 tag of every `title.default` (default "en").
    public var defaultLocale: String?
    /// Colours and background of the bar.
    public var appearance: Appearance?
    /// Named lists of values (user ids, say) that conditions test with `$inGroup` / `$notInGroup`.
    public var groups: [String: [String]]?
    /// Experiments on the bar's layout; at most one applies to a request.
    public var experiments: [Experiment]?
    /// Kinds of tab a user may open at runtime (a document, a search, a web page).
    public var tabTemplates: [TabTemplate]?

    /// Creates a config document.
    public init(
        tabs: [Tab],
        maxVisibleTabs: Int? = nil,
        initialTab: String? = nil,
        userCustomizable: Bool? = nil,
        defaultLocale: String? = nil,
        appearance: Appearance? = nil,
        groups: [String: [String]]? = nil,
        experiments: [Experiment]? = nil,
        tabTemplates: [TabTemplate]? = nil
    ) {
        self.tabs = tabs
        self.maxVisibleTabs = maxVisibleTabs
        self.initialTab = initialTab
        self.userCustomizable = userCustomizable
        self.defaultLocale = defaultLocale
        self.appearance = appearance
        self.groups = groups
        self.experiments = experiments
        self.tabTemplates = tabTemplates
    }

    /// `maxVisibleTabs`, or 5 when absent.
    public var effectiveMaxVisibleTabs: Int {
        maxVisibleTabs ?? 5
    }

    /// `initialTab`, or the first enabled top-level tab that is shown (not hard-deprecated).
    public var effectiveInitialTab: String {
        if let initialTab {
            return initialTab
        }
        let candidate = tabs.first { $0.enabled != false && $0.deprecated != .hard }
        return candidate?.id ?? tabs.first?.id ?? ""
    }

    /// `userCustomizable`, or true when absent.
    public var isUserCustomizable: Bool {
        userCustomizable ?? true
    }

    /// `defaultLocale`, or "en" when absent.
    public var effectiveDefaultLocale: String {
        defaultLocale ?? "en"
    }

    /// The template with `id`, if the config has one.
    public func template(_ id: String) -> TabTemplate? {
        tabTemplates?.first { $0.id == id }
    }

    /// Top-level tabs that apps see: all but the hard-deprecated ones, in default order.
    var shownTabs: [Tab] {
        tabs.filter { $0.deprecated != .hard }
    }
}

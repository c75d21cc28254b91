import TabBarModel

extension Tab {
    /// A valid view-controller tab whose title is its id.
    static func make(
        _ id: String,
        enabled: Bool? = nil,
        locked: Bool? = nil,
        hideable: Bool? = nil,
        children: [Tab]? = nil,
        deprecated: Deprecation? = nil,
        replaces: String? = nil,
        localized: [String: String]? = nil
    ) -> Tab {
        Tab(
            id: id,
            title: LocalizedTitle(default: "Title \(id)", localized: localized),
            destination: Destination(type: .viewController, name: "ViewController"),
            enabled: enabled,
            locked: locked,
            hideable: hideable,
            children: children,
            deprecated: deprecated,
            replaces: replaces
        )
    }
}

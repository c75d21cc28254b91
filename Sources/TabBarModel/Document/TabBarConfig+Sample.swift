extension TabBarConfig {
    /// The embedded sample for client `ios-phone`: seven tabs, English defaults with French and German titles.
    public static let sample = TabBarConfig(
        tabs: [
            Tab(
                id: "home",
                title: LocalizedTitle(key: "HOME_TAB", default: "Home", localized: ["fr": "Accueil", "de": "Start"]),
                icon: sampleIcon("home"),
                destination: Destination(
                    type: .viewController,
                    name: "HomeViewController",
                    embedInNavigationController: true
                ),
                locked: true,
                hideable: false
            ),
            Tab(
                id: "search",
                title: LocalizedTitle(
                    key: "SEARCH_TAB",
                    default: "Search",
                    localized: ["fr": "Rechercher", "de": "Suche"]
                ),
                icon: sampleIcon("search"),
                destination: Destination(type: .storyboard, name: "SearchStoryboard")
            ),
            Tab(
                id: "library",
                title: LocalizedTitle(
                    key: "LIBRARY_TAB",
                    default: "Library",
                    localized: ["fr": "Bibliothèque", "de": "Bibliothek"]
                ),
                icon: sampleIcon("library"),
                destination: Destination(
                    type: .viewController,
                    name: "LibraryViewController",
                    embedInNavigationController: true
                )
            ),
            Tab(
                id: "favorites",
                title: LocalizedTitle(
                    key: "FAVORITES_TAB",
                    default: "Favorites",
                    localized: ["fr": "Favoris", "de": "Favoriten"]
                ),
                icon: sampleIcon("favorites"),
                destination: Destination(
                    type: .viewController,
                    name: "FavoritesViewController",
                    embedInNavigationController: true
                ),
                badge: "3"
            ),
            Tab(
                id: "profile",
                title: LocalizedTitle(
                    key: "PROFILE_TAB",
                    default: "Profile",
                    localized: ["fr": "Profil", "de": "Profil"]
                ),
                icon: sampleIcon("profile"),
                destination: Destination(
                    type: .viewController,
                    name: "ProfileViewController",
                    embedInNavigationController: true
                )
            ),
            Tab(
                id: "settings",
                title: LocalizedTitle(
                    key: "SETTINGS_TAB",
                    default: "Settings",
                    localized: ["fr": "Réglages", "de": "Einstellungen"]
                ),
                icon: sampleIcon("settings"),
                destination: Destination(
                    type: .viewController,
                    name: "SettingsViewController",
                    embedInNavigationController: true
                ),
                hideable: true
            ),
            Tab(
                id: "downloads",
                title: LocalizedTitle(
                    key: "DOWNLOADS_TAB",
                    default: "Downloads",
                    localized: ["fr": "Téléchargements", "de": "Downloads"]
                ),
                icon: sampleIcon("downloads"),
                destination: Destination(
                    type: .url,
                    url: "https://example.com/downloads",
                    parameters: ["source": "tab"]
                ),
                hideable: true
            ),
        ],
        maxVisibleTabs: 5,
        initialTab: "home",
        userCustomizable: true,
        defaultLocale: "en",
        appearance: Appearance(tintColor: "#0A84FF", selectedTintColor: "#34C759", unselectedTintColor: "#8E8E93"),
        tabTemplates: [
            TabTemplate(
                id: "document",
                title: LocalizedTitle(
                    key: "DOCUMENT_TAB", default: "Document", localized: ["fr": "Document", "de": "Dokument"]),
                icon: sampleIcon("document"),
                destination: Destination(
                    type: .viewController, name: "DocumentViewController", embedInNavigationController: true),
                parameters: ["docId"],
                maxOpen: 8
            ),
            TabTemplate(
                id: "web",
                title: LocalizedTitle(
                    key: "WEB_TAB", default: "Web page", localized: ["fr": "Page web", "de": "Webseite"]),
                icon: sampleIcon("web"),
                destination: Destination(type: .viewController, name: "WebViewController"),
                parameters: ["url"],
                maxOpen: 4
            ),
        ]
    )

    private static func sampleIcon(_ name: String) -> Icon {
        Icon(image: "tabbar_\(name).png", selectedImage: "tabbar_\(name)_selected.png")
    }
}

import TabBarModel
import TabBarStore

/// The live version of one client's config, decoded once when it is loaded or published.
struct LiveConfig: Sendable {
    let stored: ConfigVersion
    let config: TabBarConfig
    /// The config's `availableLocales`, computed once.
    let locales: Set<String>

    init(stored: ConfigVersion, config: TabBarConfig) {
        self.stored = stored
        self.config = config
        locales = config.availableLocales
    }

    /// The locale a request gets (DESIGN §4): the `?locale=` value, else `Accept-Language`, else the default.
    func resolveLocale(query: String?, acceptLanguage: String?) -> String {
        config.resolveLocale(query: query, acceptLanguage: acceptLanguage, available: locales).locale
    }

    /// The wire form of this version.
    var envelope: ConfigEnvelope {
        ConfigEnvelope(
            client: stored.client, version: stored.version, publishedAt: stored.publishedAt, note: stored.note,
            rollbackOf: stored.rollbackOf, config: config)
    }
}

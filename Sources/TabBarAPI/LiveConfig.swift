import TabBarModel
import TabBarStore

/// The live version of one client's config, decoded once when it is loaded or published.
struct LiveConfig: Sendable {
    var stored: ConfigVersion
    var config: TabBarConfig
}

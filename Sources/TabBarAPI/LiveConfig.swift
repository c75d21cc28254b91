import TabBarModel
import TabBarStore

/// The live version of one client's config, decoded once when it is loaded or published.
struct LiveConfig: Sendable {
    var stored: ConfigVersion
    var config: TabBarConfig

    /// The wire form of this version.
    var envelope: ConfigEnvelope {
        ConfigEnvelope(
            client: stored.client, version: stored.version, publishedAt: stored.publishedAt, note: stored.note,
            rollbackOf: stored.rollbackOf, config: config)
    }
}

import MicroHTTP
import Synchronization
import TabBarModel
import TabBarStore

/// The live version of one client's config, decoded once when it is loaded or published; a class, so that a
/// request takes it from the catalog with one reference.
final class LiveConfig: Sendable {
    let stored: ConfigVersion
    let config: TabBarConfig
    /// The config's merge plan, computed once.
    let plan: MergePlan
    /// The config's `availableLocales`, indexed once.
    let locales: LocaleIndex
    /// The config's targeting rules, compiled once.
    let targeting: TargetingPlan
    /// Every tab of the hierarchy with what decides whether a request has it, in document order.
    let tabDeciders: [(id: String, decider: TabDecider)]
    /// The encodings of this version, built on first use.
    let cache: VersionCache
    /// What each registered build cannot open of this version, by the manifest's revision, computed on first use.
    private let absences = Mutex<[Int: BuildAbsence]>([:])
    /// The states of the staged rollouts that follow this version's plans, by tab: where their coverage stands.
    let rollouts: [String: RolloutState]
    /// The tabs with a staged rollout, with the rollout and its plan key, by tab id (what a report is counted against).
    let stagedRollouts: [String: (rollout: Rollout, plan: String)]

    /// `rollouts`: the client's staged rollouts' states (those following another plan count as none: such a rollout
    /// is at its first stage); `lookups`: where the encodings' cache counts its hits and misses.
    init(stored: ConfigVersion, config: TabBarConfig, rollouts: [RolloutState] = [], lookups: CacheLookups? = nil) {
        cache = VersionCache(lookups: lookups)
        self.stored = stored
        self.config = config
        let states = Dictionary(rollouts.map { ($0.tab, $0) }) { first, _ in first }
        var following: [String: RolloutState] = [:]
        var staged: [String: (rollout: Rollout, plan: String)] = [:]
        for (tab, rollout) in config.stagedRollouts {
            guard let plan = rollout.planKey(tab: tab) else { continue }
            staged[tab] = (rollout, plan)
            if let state = states[tab], state.plan == plan { following[tab] = state }
        }
        stagedRollouts = staged
        self.rollouts = following
        targeting = TargetingPlan(config: config, standings: following.mapValues(\.standing))
        plan = config.mergePlan
        locales = LocaleIndex(config.availableLocales)
        tabDeciders = targeting.tabDeciders
    }

    /// What the build of `registered` cannot open of this version, computed once per manifest.
    func absence(for registered: BuildRegistry.Registered) -> BuildAbsence {
        let revision = registered.stored.revision
        if let known = absences.withLock({ $0[revision] }) { return known }
        let absence = BuildAbsence(config: config, manifest: registered.manifest)
        absences.withLock { $0[revision] = absence }
        return absence
    }

    /// The locale a request gets (docs/design/model.md, "Resolving a tab bar"): the `?locale=` value, else `Accept-Language`, else the default.
    func resolveLocale(query: String?, acceptLanguage: String?) -> String {
        config.resolveLocale(query: query, acceptLanguage: acceptLanguage, available: locales).locale
    }

    /// This version's tab bar in `locale` for `outcome`, encoded once.
    func encodedTabBar(locale: String, outcome: TargetingOutcome) -> EncodedTabBar {
        cache.tabBar(locale: locale, outcome: outcome.key) {
            EncodedTabBar(live: self, locale: locale, outcome: outcome)
        }
    }

    /// The `200` and `304` answers of this version's default tab bar in `locale` for `outcome`, prepared once in
    /// each content coding (``VersionCache`` says at which effort), and their validators. `varyHeader`: the trusted
    /// country header the answer depends on.
    func defaultAnswer(
        locale: String, outcome: TargetingOutcome, variesByLanguage: Bool, varyHeader: String?, cacheControl: String
    ) -> PreparedAnswer {
        cache.defaultAnswer(locale: locale, outcome: outcome.key, variesByLanguage: variesByLanguage) {
            PreparedAnswer(
                validators: CacheValidators(
                    etag: EntityTag.defaultTabs(version: stored.version, locale: locale, outcome: outcome.key),
                    cacheControl: cacheControl, variesByLanguage: variesByLanguage, variesByHeader: varyHeader),
                body: encodedTabBar(locale: locale, outcome: outcome).defaultBody, effort: .fast)
        }
    }

    /// The answer of `GET …/config` while this version is live, prepared once in each content coding.
    func configAnswer() -> PreparedAnswer {
        cache.configAnswer {
            PreparedAnswer(
                validators: CacheValidators(
                    etag: EntityTag.config(version: stored.version), cacheControl: CachePolicy.privateCacheControl,
                    variesByLanguage: false),
                body: CanonicalJSON.encode(envelope), effort: .fast)
        }
    }

    /// The wire form of this version.
    var envelope: ConfigEnvelope {
        ConfigEnvelope(
            client: stored.client, version: stored.version, publishedAt: stored.publishedAt, note: stored.note,
            rollbackOf: stored.rollbackOf, config: config)
    }
}

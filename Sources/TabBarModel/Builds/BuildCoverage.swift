/// What the registered builds of a client can open of a config about to be published (docs/design/model.md, "Build
/// manifests"): for each build that lacks something, the tabs and templates it will not show; and the ones no
/// registered build can open. Warnings for a publish and its dry run, never a refusal.
public struct BuildCoverage: Sendable, Equatable {
    /// A tab, child or template a build cannot open: its id, its own pointer, and what the build lacks with the
    /// pointer of the destination's member that names it.
    public struct Tab: Sendable, Equatable, Codable {
        /// The tab's or template's id.
        public var id: String
        /// Its pointer in the document (`/tabs/2`, `/tabTemplates/0`).
        public var pointer: String
        /// The pointer of what the build lacks (`/tabs/2/destination/name`).
        public var missingPointer: String
        /// What the build lacks (`has no viewController ShopViewController`).
        public var reason: String

        init(_ missing: BuildAbsence.Missing) {
            id = missing.id
            pointer = missing.tabPointer
            missingPointer = missing.pointer
            reason = missing.reason
        }
    }

    /// One registered build that cannot open some tab.
    public struct Build: Sendable, Equatable, Codable {
        public var platform: String
        public var appVersion: String
        /// The manifest's build number, if it has one.
        public var buildNumber: String?
        /// What it will not show, in document order (tabs, then templates).
        public var tabs: [Tab]
    }

    /// The builds that cannot open something, by platform and app version.
    public var builds: [Build]
    /// The tabs and templates no registered build can open, with the reason of the first build that lists them;
    /// empty when no build is registered.
    public var unopenable: [Tab]

    /// What each of `manifests` cannot open of `config`.
    public init(config: TabBarConfig, manifests: [AppBuild: BuildManifest]) {
        var builds: [Build] = []
        var lacking: [Set<String>] = []
        for (build, manifest) in manifests.sorted(by: { $0.key < $1.key }) {
            let absence = BuildAbsence(config: config, manifest: manifest)
            let tabs = (absence.tabs + absence.templates).map(Tab.init)
            guard !tabs.isEmpty else { continue }
            builds.append(
                Build(
                    platform: build.platform, appVersion: build.appVersion, buildNumber: manifest.buildNumber,
                    tabs: tabs))
            lacking.append(Set(tabs.map(\.pointer)))
        }
        self.builds = builds
        // A tab no build can open is listed by every build, itself or through a parent; so only when every build is
        // listed can there be one.
        guard !builds.isEmpty, builds.count == manifests.count else {
            unopenable = []
            return
        }
        var seen: Set<String> = []
        unopenable = builds.flatMap(\.tabs).filter { tab in
            seen.insert(tab.pointer).inserted
                && lacking.allSatisfy { pointers in
                    pointers.contains(tab.pointer) || pointers.contains { tab.pointer.hasPrefix($0 + "/") }
                }
        }
    }
}

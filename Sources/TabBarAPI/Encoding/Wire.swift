import Foundation
import TabBarModel

/// A config version with its document: the answer of `GET`/`PUT …/config` and `GET …/config/versions/{n}`.
struct ConfigEnvelope: Encodable {
    var client: String
    var version: Int
    var publishedAt: Date
    var note: String?
    var rollbackOf: Int?
    var config: TabBarConfig
}

/// One entry of `GET /v1/clients`.
struct ClientSummary: Encodable {
    var client: String
    var version: Int
    var publishedAt: Date
}

/// `GET /v1/clients` answer.
struct ClientList: Encodable {
    var clients: [ClientSummary]
}

/// One entry of `GET …/config/versions`.
struct VersionSummary: Encodable {
    var version: Int
    var publishedAt: Date
    var note: String?
    var rollbackOf: Int?
    var size: Int
}

/// `GET …/config/versions` answer, newest first.
struct VersionList: Encodable {
    var client: String
    var live: Int
    var versions: [VersionSummary]
}

/// `GET …/users/{user}/tab-order` answer.
struct TabOrderBody: Encodable {
    var order: [String]
    var hidden: [String]
    var revision: UInt64
}

/// `PUT …/users/{user}/tab-order` answer.
struct SavedTabOrderBody: Encodable {
    var order: [String]
    var hidden: [String]
    var revision: UInt64
    var ignored: [String]
}

/// `/healthz` and `/readyz` answers; `/healthz` also names the service's version.
struct ProbeBody: Encodable {
    var status: String
    var version: String?
}

/// `GET …/tabs/explain` answer: the context as conditions saw it, what targeting decided for every tab and
/// experiment and why, and the tab bar that results.
struct ExplainBody: Encodable {
    var client: String
    var version: Int
    var evaluatedAt: Date
    var context: RequestContext
    var tabs: [TabExplanation]
    var experiments: [ExperimentExplanation]
    var tabBar: ResolvedTabBar
}

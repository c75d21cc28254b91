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

/// A tab the user opened, as the dynamic-tabs endpoints show it.
struct DynamicTabBody: Encodable {
    var id: String
    var template: String
    var name: String
    var parameters: [String: String]
    var title: String?

    init(_ tab: DynamicTab) {
        id = tab.id
        template = tab.template
        name = tab.name
        parameters = tab.parameters
        title = tab.title
    }
}

/// `GET …/users/{user}/dynamic-tabs` answer: the open tabs, in the order they were opened.
struct DynamicTabsBody: Encodable {
    var dynamicTabs: [DynamicTabBody]
    var revision: UInt64
}

/// `POST …/users/{user}/dynamic-tabs` answer: the tab opened, or the one already open under its name.
struct OpenedDynamicTabBody: Encodable {
    var tab: DynamicTabBody
    var revision: UInt64
}

/// `/healthz` and `/readyz` answers; `/healthz` also names the service's version.
struct ProbeBody: Encodable {
    var status: String
    var version: String?
}

/// `GET …/tabs/explain` and `POST …/config/preview` answer: the context as conditions saw it, what targeting decided
/// for every tab and experiment and why, and the tab bar that results.
struct ExplainBody: Encodable {
    var client: String
    var version: Int
    var evaluatedAt: Date
    var context: RequestContext
    /// The build the context names, when it names one.
    var build: BuildExplanation?
    var tabs: [TabExplanation]
    var experiments: [ExperimentExplanation]
    var tabBar: ResolvedTabBar
}

/// The build an explained context names, and whether a manifest is registered for it (without one, the build gets
/// what targeting gives).
struct BuildExplanation: Encodable {
    var platform: String
    var appVersion: String
    var registered: Bool
}

extension SavedTabOrderBody {
    /// The body as `CanonicalJSON` encodes it, written directly when every id is plain (the usual case).
    var json: Data {
        var body: [UInt8] = []
        body.reserveCapacity(128)
        body.append(UInt8(ascii: "{"))
        guard DirectJSON.appendMember("hidden", hidden, to: &body) else { return CanonicalJSON.encode(self) }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("ignored", ignored, to: &body) else { return CanonicalJSON.encode(self) }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("order", order, to: &body) else { return CanonicalJSON.encode(self) }
        DirectJSON.append(",\"revision\":", to: &body)
        DirectJSON.appendDecimal(revision, to: &body)
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }
}

import Foundation
import TabBarModel

/// `GET`/`PUT /v1/clients/{client}/config` answer: the live document with its version.
struct ConfigEnvelope: Encodable {
    var client: String
    var version: Int
    var publishedAt: Date
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

/// `GET /v1/clients/{client}/users/{user}/tab-order` answer.
struct TabOrderBody: Encodable {
    var order: [String]
    var hidden: [String]
    var revision: UInt64
}

/// `PUT /v1/clients/{client}/users/{user}/tab-order` answer.
struct SavedTabOrderBody: Encodable {
    var order: [String]
    var hidden: [String]
    var revision: UInt64
    var ignored: [String]
}

/// `/healthz` and `/readyz` answers.
struct ProbeBody: Encodable {
    var status: String
}

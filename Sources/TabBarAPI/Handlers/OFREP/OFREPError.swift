import Foundation
import MicroHTTP
import TabBarModel

/// An OFREP evaluation failure, answered in the protocol's own shape (`{"key", "errorCode", "errorDetails"}`), not
/// as problem+json: OpenFeature providers read `errorCode`.
struct OFREPError: Error {
    let status: Int
    /// One of OFREP's codes: `PARSE_ERROR`, `INVALID_CONTEXT`, `TARGETING_KEY_MISSING`, `FLAG_NOT_FOUND`.
    let code: String
    let details: String

    /// The body is not JSON.
    static func parse(_ details: String) -> OFREPError {
        OFREPError(status: 400, code: "PARSE_ERROR", details: details)
    }

    /// The context is not one this service evaluates: `details` names the member.
    static func invalidContext(_ details: String) -> OFREPError {
        OFREPError(status: 400, code: "INVALID_CONTEXT", details: details)
    }

    /// A user token was sent but the context names no user.
    static let targetingKeyMissing = OFREPError(
        status: 400, code: "TARGETING_KEY_MISSING",
        details: "the context names no user: with user authentication, 'targetingKey' is the token's subject")

    /// No flag by that key for the client, or no client by that id.
    static func flagNotFound(_ key: String, client: String) -> OFREPError {
        OFREPError(status: 404, code: "FLAG_NOT_FOUND", details: "client '\(client)' has no flag '\(key.prefix(140))'")
    }

    /// The answer: `key` is the flag of a single evaluation, nil for a bulk one.
    func response(key: String?) -> Response {
        var body: [UInt8] = []
        body.reserveCapacity(details.utf8.count + 96)
        DirectJSON.append("{\"errorCode\":", to: &body)
        DirectJSON.appendString(code, to: &body)
        DirectJSON.append(",\"errorDetails\":", to: &body)
        DirectJSON.appendString(details, to: &body)
        if let key {
            DirectJSON.append(",\"key\":", to: &body)
            DirectJSON.appendString(key, to: &body)
        }
        body.append(UInt8(ascii: "}"))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        return Response(status: status, headers: headers, body: Data(body))
    }
}

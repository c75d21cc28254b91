import Foundation
import MicroHTTP
import TabBarModel

/// An RFC 9457 problem document as sent on the wire; public so that `tabconfig`'s HTTP commands read it with this
/// type.
public struct Problem: Codable, Sendable {
    /// A URI naming the kind of problem (`urn:tabconfig:problem:…`).
    public var type: String
    /// A short summary of the kind.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong in this request.
    public var detail: String
    /// Every problem at a place in the request, if the request had any.
    public var errors: [Entry]?
    /// The request's id (`X-Request-Id`), naming this occurrence of the problem.
    public var instance: String?

    /// One entry of `errors`: a place in the body (`pointer`) or a path or query parameter (`parameter`).
    public struct Entry: Codable, Sendable {
        /// RFC 6901 pointer into the body.
        public var pointer: String?
        /// The path or query parameter.
        public var parameter: String?
        /// What is wrong.
        public var message: String

        /// The entry as command-line tools print it: `POINTER: MESSAGE` (`/` for the whole body), or
        /// `PARAMETER: MESSAGE`.
        public var line: String {
            if let parameter { return "\(parameter): \(message)" }
            return ValidationProblem(pointer: pointer ?? "", message: message).line
        }
    }

    init(_ error: APIError, instance: String?) {
        self.instance = instance
        type = error.type
        title = error.title
        status = error.status
        detail = error.detail
        var entries = error.errors.map { Entry(pointer: $0.pointer, message: $0.message) }
        if let parameter = error.parameter {
            entries.append(Entry(parameter: parameter, message: error.detail))
        }
        errors = entries.isEmpty ? nil : entries
    }
}

extension Response {
    /// A `application/problem+json` response for `error` in answer to `request`, whose id is the problem's
    /// `instance`.
    static func problem(_ error: APIError, for request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        headers.add(name: "Cache-Control", value: "no-store")
        for (name, value) in error.headers.sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        let problem = Problem(error, instance: request.requestID.isEmpty ? nil : request.requestID)
        return Response(status: error.status, headers: headers, body: CanonicalJSON.encode(problem))
    }

    /// A JSON response with the given status.
    static func json(encoded body: Data, status: Int = 200, cacheControl: String = "no-store") -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: cacheControl)
        return Response(status: status, headers: headers, body: body)
    }

    /// A JSON response encoding `value`.
    static func json<T: Encodable>(_ value: T, status: Int = 200) -> Response {
        json(encoded: CanonicalJSON.encode(value), status: status)
    }

    /// An empty `204 No Content`.
    static let noContent = Response(status: 204)
}

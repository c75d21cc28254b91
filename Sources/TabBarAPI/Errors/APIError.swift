import TabBarModel
import TabBarStore

/// An error a handler throws; it carries everything needed for the problem+json answer.
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var type: String
    public var title: String
    public var detail: String
    public var errors: [ValidationProblem]
    /// The path or query parameter at fault, for a 400 about one.
    public var parameter: String?
    public var headers: [String: String]

    public init(
        status: Int, type: String = "about:blank", title: String, detail: String,
        errors: [ValidationProblem] = [], parameter: String? = nil, headers: [String: String] = [:]
    ) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors
        self.parameter = parameter
        self.headers = headers
    }
}

extension APIError {
    static func malformed(_ detail: String) -> APIError {
        APIError(status: 400, type: ProblemType.malformed, title: "Malformed request", detail: detail)
    }

    static func invalidParameter(_ name: String, _ detail: String) -> APIError {
        APIError(
            status: 400, type: ProblemType.malformed, title: "Invalid parameter", detail: detail, parameter: name)
    }

    /// A client id that does not match `Identifiers.clientPattern`.
    static let invalidClient = invalidParameter("client", "a client id matches \(Identifiers.clientPattern)")

    static func unauthorized(_ detail: String) -> APIError {
        APIError(
            status: 401, type: ProblemType.unauthorized, title: "Unauthorized", detail: detail,
            headers: ["WWW-Authenticate": "Bearer realm=\"tabconfig-admin\""])
    }

    static func userUnauthorized(_ detail: String) -> APIError {
        APIError(
            status: 401, type: ProblemType.unauthorized, title: "Unauthorized", detail: detail,
            headers: ["WWW-Authenticate": "Bearer realm=\"tabconfig\", error=\"invalid_token\""])
    }

    static func forbidden(_ detail: String) -> APIError {
        APIError(status: 403, type: ProblemType.forbidden, title: "Forbidden", detail: detail)
    }

    static func unknownClient(_ client: String) -> APIError {
        APIError(
            status: 404, type: ProblemType.notFound, title: "Not found",
            detail: "No config is published for client '\(client)'.")
    }

    static func notFound(_ detail: String) -> APIError {
        APIError(status: 404, type: ProblemType.notFound, title: "Not found", detail: detail)
    }

    static func methodNotAllowed(_ allowed: [String]) -> APIError {
        APIError(
            status: 405, type: "about:blank", title: "Method not allowed",
            detail: "Allowed methods: \(allowed.joined(separator: ", ")).",
            headers: ["Allow": allowed.joined(separator: ", ")])
    }

    /// The request's `Accept-Encoding` refuses every coding the answer has, `identity` too.
    static let notAcceptable = APIError(
        status: 406, type: "about:blank", title: "Not acceptable",
        detail: "Accept-Encoding refuses identity and every coding this answer is available in (gzip, br).")

    static func notCustomizable(_ client: String) -> APIError {
        APIError(
            status: 409, type: ProblemType.notCustomizable, title: "Customization disabled",
            detail: "The live config of client '\(client)' does not allow users to customize the tab bar.")
    }

    static func tooManyOpenTabs(template: String, maxOpen: Int) -> APIError {
        APIError(
            status: 409, type: ProblemType.tooManyOpenTabs, title: "Too many open tabs",
            detail: "The user has \(maxOpen) tabs of template '\(template)' open, its maxOpen; close one first.")
    }

    /// Writes of the same user's customization kept overtaking this one (without `If-Match`, an update is retried
    /// on the newest state a few times before this).
    static let concurrentUpdate = APIError(
        status: 409, type: ProblemType.concurrentUpdate, title: "Concurrent update",
        detail: "Other writes to this user's customization kept coming first; retry.")

    static func dynamicTabNotOpen(_ name: String) -> APIError {
        notFound("The user has no open tab named '\(name)'.")
    }

    static let revisionMismatch = APIError(
        status: 412, type: ProblemType.preconditionFailed, title: "Precondition failed",
        detail: "The stored revision does not match the expected one.")

    /// `If-None-Match: *` on a method that is not GET or HEAD, where an answer exists (RFC 9110 §13.1.2).
    static let anyRepresentationExists = APIError(
        status: 412, type: ProblemType.preconditionFailed, title: "Precondition failed",
        detail: "If-None-Match: * holds only where nothing exists; this request has an answer.")

    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(
            status: 413, type: ProblemType.payloadTooLarge, title: "Payload too large",
            detail: "The request body exceeds the limit of \(limit) bytes.")
    }

    static func unsupportedMediaType(_ contentType: String) -> APIError {
        APIError(
            status: 415, type: ProblemType.unsupportedMediaType, title: "Unsupported media type",
            detail: "Expected application/json, got '\(contentType)'.")
    }

    static func invalidDocument(_ detail: String, _ problems: [ValidationProblem]) -> APIError {
        APIError(
            status: 422, type: ProblemType.invalid, title: "Invalid document", detail: detail,
            errors: problems)
    }

    static func unavailable(_ detail: String) -> APIError {
        APIError(
            status: 503, type: ProblemType.unavailable, title: "Service unavailable", detail: detail,
            headers: ["Retry-After": "5"])
    }

    /// An event stream past the subscriber limit: the connection is closed, so that refused subscribers do not keep
    /// connections that requests need.
    static let tooManyEventStreams = APIError(
        status: 503, type: ProblemType.tooManyEventStreams, title: "Too many event streams",
        detail: "The server holds as many event streams as it allows; retry later.",
        headers: ["Retry-After": "5", "Connection": "close"])

    /// A replica on a shared store could not read what the request names (a newer version or revision) from it.
    static let readThroughFailed = unavailable(
        "This replica cannot read the version or revision the request names from the database yet; retry later.")

    /// A person's action on a staged rollout whose state another replica changed meanwhile.
    static let rolloutChanged = APIError(
        status: 409, type: ProblemType.rolloutConflict, title: "Rollout changed",
        detail: "The staged rollout changed while the action was decided; look at it again and retry.")

    /// A person's action a staged rollout's phase does not allow (resuming a running one, advancing a rolled-back one).
    static func rolloutPhase(action: String, phase: String) -> APIError {
        APIError(
            status: 409, type: ProblemType.rolloutConflict, title: "Rollout cannot do that now",
            detail: "A rollout that is \(phase) cannot be told to \(action).")
    }

    static let internalError = APIError(
        status: 500, type: "about:blank", title: "Internal server error",
        detail: "The server failed to handle the request; the error has been logged.")
}

/// The `type` URIs of the problems this service answers with.
enum ProblemType {
    static let malformed = "urn:tabconfig:problem:malformed-request"
    static let unauthorized = "urn:tabconfig:problem:unauthorized"
    static let forbidden = "urn:tabconfig:problem:forbidden"
    static let notFound = "urn:tabconfig:problem:not-found"
    static let notCustomizable = "urn:tabconfig:problem:customization-disabled"
    static let preconditionFailed = "urn:tabconfig:problem:precondition-failed"
    static let tooManyOpenTabs = "urn:tabconfig:problem:too-many-open-tabs"
    static let concurrentUpdate = "urn:tabconfig:problem:concurrent-update"
    static let payloadTooLarge = "urn:tabconfig:problem:payload-too-large"
    static let unsupportedMediaType = "urn:tabconfig:problem:unsupported-media-type"
    static let invalid = "urn:tabconfig:problem:invalid-document"
    static let unavailable = "urn:tabconfig:problem:store-unavailable"
    static let tooManyEventStreams = "urn:tabconfig:problem:too-many-event-streams"
    static let rolloutConflict = "urn:tabconfig:problem:rollout-conflict"
}

extension APIError {
    /// The answer to a store write that failed. The store's own reason names files, so it goes to the log only.
    init(_ error: StoreError) {
        switch error {
        case .revisionMismatch:
            self = .revisionMismatch
        case .invalidClientID:
            self = .invalidClient
        case .invalidDocument:
            self = .invalidDocument("The document cannot be stored.", [])
        case .recordTooLarge:
            self = APIError(
                status: 413, type: ProblemType.payloadTooLarge, title: "Payload too large",
                detail: "The customization is too large to store.")
        default:
            self = .unavailable("The store does not accept writes.")
        }
    }
}

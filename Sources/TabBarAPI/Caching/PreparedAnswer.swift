import Foundation
import MicroHTTP

/// A `200` prepared once in every content coding worth sending (identity always; gzip and brotli when the body is
/// at least ``Compression/minimumSize`` and they make it smaller), each with its own prepared `304`. A request gets
/// the coding its `Accept-Encoding` selects (RFC 9110 §12.5.3) and a `304` when its `If-None-Match` names that
/// coding's tag (§13.1.2). The compressed forms are made when the answer is, and live and die with it: requests
/// compress nothing.
final class PreparedAnswer: Sendable {
    /// One coding's validators, body and prepared responses.
    struct Form: Sendable {
        let validators: CacheValidators
        let body: Data
        let response: Response
        let notModified: Response
    }

    /// The forms by ``slot(_:)`` (an array, not a dictionary: every request looks one up, and `ContentCoding`
    /// hashes its raw value).
    private let forms: [Form?]
    private let offered: [ContentCoding]

    private static func slot(_ coding: ContentCoding) -> Int {
        switch coding {
        case .identity: 0
        case .gzip: 1
        case .brotli: 2
        }
    }

    /// Prepares `body` of `contentType` under `validators` (identity's) in each coding worth it; `headers` go on
    /// every `200` and `304` besides the validators'.
    init(
        validators: CacheValidators, body: Data, contentType: String = CacheValidators.jsonContentType,
        headers: HTTPHeaders = [:]
    ) {
        var bodies: [(ContentCoding, Data)] = []
        if body.count >= Compression.minimumSize {
            for coding in [ContentCoding.brotli, .gzip] {
                if let compressed = Compression.compress(body, as: coding), compressed.count < body.count {
                    bodies.append((coding, compressed))
                }
            }
        }
        var forms = [Form?](repeating: nil, count: 3)
        let identity = bodies.isEmpty ? validators : validators.encoded(.identity)
        for (coding, bytes) in [(ContentCoding.identity, body)] + bodies {
            let validators = coding == .identity ? identity : validators.encoded(coding)
            var fresh = validators.response(bytes, contentType: contentType).headers
            var same = validators.notModified.headers
            for (name, value) in headers {
                fresh.add(name: name, value: value)
                same.add(name: name, value: value)
            }
            forms[Self.slot(coding)] = Form(
                validators: validators, body: bytes,
                response: Response(prepared: PreparedResponse(status: 200, headers: fresh, body: bytes)),
                notModified: Response(prepared: PreparedResponse(status: 304, headers: same, body: Data())))
        }
        self.forms = forms
        offered = [.identity] + bodies.map(\.0)
    }

    /// The form `acceptEncoding` selects; nil when it refuses them all (a `406`).
    func form(acceptEncoding: String?) -> Form? {
        ContentCoding.negotiate(acceptEncoding, offered: offered).flatMap { forms[Self.slot($0)] }
    }

    /// The prepared `304` of the selected form when `ifNoneMatch` names its tag, else its prepared `200`; nil when
    /// `acceptEncoding` refuses every form.
    func answer(acceptEncoding: String?, ifNoneMatch: String?) -> Response? {
        guard let form = form(acceptEncoding: acceptEncoding) else { return nil }
        return form.validators.matches(ifNoneMatch: ifNoneMatch) ? form.notModified : form.response
    }
}

extension PreparedAnswer {
    /// ``answer(acceptEncoding:ifNoneMatch:)`` for `request`; a `406` problem when its `Accept-Encoding` refuses every
    /// form.
    func answer(_ request: Request) throws -> Response {
        guard
            let response = answer(
                acceptEncoding: request.headers["Accept-Encoding"], ifNoneMatch: request.headers["If-None-Match"])
        else { throw APIError.notAcceptable }
        return response
    }
}

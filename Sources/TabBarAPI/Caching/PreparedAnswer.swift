import Foundation
import MicroHTTP
import Synchronization

/// A `200` prepared once in every content coding worth sending (identity always; gzip and brotli when the body is
/// at least ``Compression/minimumSize`` and they make it smaller), each with its own prepared `304`. A request gets
/// the coding its `Accept-Encoding` selects (RFC 9110 §12.5.3) and a `304` when its `If-None-Match` names that
/// coding's tag (§13.1.2). The compressed forms are made when the answer is, and live and die with it: requests that
/// reuse an answer compress nothing.
///
/// An answer first needed by a request is made at the ``Compression/Effort/fast`` effort; the cache keeping it makes
/// it again at the best effort off the request's thread once it is used again (``claimUpgrade()``,
/// ``AnswerCompressor``). Both makings of a coding carry the coding's one tag: they decode to the same bytes, so a
/// client holding either is right to get a `304` for it, and the API serves no byte ranges, where only the compressed
/// bytes themselves would matter.
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
    /// What the answer is made of, to make it again at another effort.
    private let source: (validators: CacheValidators, body: Data, contentType: String, headers: HTTPHeaders)
    /// How hard the compressed forms were compressed.
    let effort: Compression.Effort
    /// The bytes of every form's body, and a little for their heads: what a cache counts this answer as.
    let byteCount: Int
    private let uses = Atomic(0)

    private static func slot(_ coding: ContentCoding) -> Int {
        switch coding {
        case .identity: 0
        case .gzip: 1
        case .brotli: 2
        }
    }

    /// Prepares `body` of `contentType` under `validators` (identity's) in each coding worth it, compressed at
    /// `effort`; `headers` go on every `200` and `304` besides the validators'.
    init(
        validators: CacheValidators, body: Data, contentType: String = CacheValidators.jsonContentType,
        headers: HTTPHeaders = [:], effort: Compression.Effort = .best
    ) {
        var bodies: [(ContentCoding, Data)] = []
        if body.count >= Compression.minimumSize {
            for coding in [ContentCoding.brotli, .gzip] {
                if let compressed = Compression.compress(body, as: coding, effort: effort),
                    compressed.count < body.count
                {
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
        self.effort = effort
        source = (validators, body, contentType, headers)
        byteCount = body.count + bodies.reduce(0) { $0 + $1.1.count } + 256 * (bodies.count + 1)
    }

    /// The same answer made at `effort`.
    func remade(at effort: Compression.Effort) -> PreparedAnswer {
        PreparedAnswer(
            validators: source.validators, body: source.body, contentType: source.contentType, headers: source.headers,
            effort: effort)
    }

    /// Counts a use of this answer by a cache; true once, for the second use, when the answer has compressed forms
    /// made at the fast effort: the caller has it made again at the best effort. ``releaseUpgrade()`` gives the claim
    /// back.
    func claimUpgrade() -> Bool {
        guard effort == .fast, offered.count > 1 else { return false }
        return uses.add(1, ordering: .relaxed).newValue == 2
    }

    /// Lets the next use claim the upgrade again (the claimant could not have it made).
    func releaseUpgrade() {
        uses.store(1, ordering: .relaxed)
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

import MicroHTTP
import TabBarModel

/// Reads a request's targeting context: its query parameters, and the trusted country header when the operator
/// named one.
struct ContextReader: Sendable {
    /// The trusted header holding the request's country, if the operator named one.
    let countryHeader: String?

    /// The request's context; 400 naming the parameter when one is malformed.
    func context(of request: Request) throws -> RequestContext {
        try Self.context(query: request.queryItems, country: countryHeader.flatMap { request.headers[$0] })
    }

    /// The head's context; nil when a parameter is malformed (a 400, left to the router). A query of at most
    /// `?locale=` (`localeGiven`), as most requests without targeting send, is the empty context, known without
    /// copying the query.
    func context(of head: RequestHead, localeGiven: Bool) -> RequestContext? {
        let country = countryHeader.flatMap { head.header(named: $0) }
        if country == nil, head.queryCount == (localeGiven ? 1 : 0) {
            return RequestContext()
        }
        var parser = RequestContextParser()
        var valid = true
        head.forEachQueryItem { name, value in
            valid = parser.read(name: name, value: value) == nil
            return valid
        }
        return valid ? parser.finish(trustedCountry: country) : nil
    }

    /// The context of `query` with the trusted `country`; 400 naming the parameter when one is malformed.
    static func context(query: [(name: String, value: String)], country: String?) throws -> RequestContext {
        switch RequestContext.parse(query: query, trustedCountry: country) {
        case .success(let context): return context
        case .failure(let problem): throw APIError.invalidParameter(problem.parameter, problem.message)
        }
    }
}

import Foundation

/// An OpenFeature evaluation context, the body `{"context": {...}}` of an OFREP request (docs/design/model.md,
/// "Targeting"): the client, the user (`targetingKey`), the locale, and the same ``RequestContext`` the query
/// parameters of a tab-bar GET give, read by the same names and rules.
public struct EvaluationContext: Sendable, Equatable {
    /// The most members a context may have: the names a context uses leave room for what an SDK adds.
    public static let maximumMembers = 64

    /// The `client` member, checked against the client id pattern.
    public var client: String?
    /// The `targetingKey` member, the user; nil when absent or empty.
    public var targetingKey: String?
    /// The `locale` member, a BCP 47 tag.
    public var locale: String?
    /// `platform`, `appVersion`, `osVersion`, `country`, `deviceId` and `attr.NAME`.
    public var context: RequestContext

    /// Creates a context.
    public init(client: String?, targetingKey: String? = nil, locale: String? = nil, context: RequestContext = .init()) {
        self.client = client
        self.targetingKey = targetingKey
        self.locale = locale
        self.context = context
    }
}

/// Why an OFREP request body was refused.
public enum EvaluationContextProblem: Error, Sendable, Equatable {
    /// The body is not JSON (OFREP's `PARSE_ERROR`); the message says where.
    case malformedJSON(String)
    /// The body is JSON but not a valid context (OFREP's `INVALID_CONTEXT`); the message names the member.
    case invalid(String)
}

extension EvaluationContext {
    /// Reads a request body. Members other than the ones a context uses are ignored, as query parameters other than
    /// the context's are; those it uses must be strings, each valid as its query parameter is. `trustedCountry` wins
    /// over the context's `country` as it does over `?country=`.
    public static func decode(
        json: Data, trustedCountry: String? = nil
    ) -> Result<EvaluationContext, EvaluationContextProblem> {
        let root: JSONValue
        do {
            root = try JSONParser.parse(json)
        } catch {
            return .failure(error.isTooDeep ? .invalid(error.reason) : .malformedJSON(error.description))
        }
        guard case .object(let members) = root,
            let context = members.first(where: { $0.key == "context" })?.value, case .object(let attributes) = context
        else {
            return .failure(.invalid("the body is an object with a member 'context', an object"))
        }
        guard members.count(where: { $0.key == "context" }) == 1 else {
            return .failure(.invalid("'context' is given more than once"))
        }
        guard attributes.count <= maximumMembers else {
            return .failure(.invalid("a context has at most \(maximumMembers) members"))
        }
        return read(attributes, trustedCountry: trustedCountry)
    }

    private static func read(
        _ members: [JSONMember], trustedCountry: String?
    ) -> Result<EvaluationContext, EvaluationContextProblem> {
        var result = EvaluationContext(client: nil)
        var parser = RequestContextParser()
        // The context's own names met so far, a bit each (client 1, targetingKey 2, locale 4).
        var seen = 0
        for member in members {
            let name = member.key
            let own = name == "client" || name == "targetingKey" || name == "locale"
            guard own || name.hasPrefix("attr.") || RequestContext.Parameter(name) != nil else { continue }
            guard case .string(let value) = member.value else {
                return .failure(.invalid("'\(name.prefix(64))' is a string, found \(member.value.kindDescription)"))
            }
            guard own else {
                if let problem = parser.read(name: name, value: value) {
                    return .failure(.invalid("'\(problem.parameter.prefix(64))': \(problem.message)"))
                }
                continue
            }
            let bit = name == "client" ? 1 : name == "targetingKey" ? 2 : 4
            guard seen & bit == 0 else { return .failure(.invalid("'\(name)' is given more than once")) }
            seen |= bit
            switch name {
            case "client":
                guard Identifiers.isValidClient(value) else {
                    return .failure(.invalid("'client': a client id matches \(Identifiers.clientPattern)"))
                }
                result.client = value
            case "targetingKey":
                guard value.isEmpty || Identifiers.isValidUser(value) else {
                    return .failure(.invalid("'targetingKey': a user id matches \(Identifiers.userPattern)"))
                }
                result.targetingKey = value.isEmpty ? nil : value
            default:
                guard isValidLocaleTag(value) else {
                    return .failure(.invalid("'locale': '\(value.prefix(64))' is not a BCP 47 language tag"))
                }
                result.locale = value
            }
        }
        result.context = parser.finish(trustedCountry: trustedCountry)
        return .success(result)
    }
}

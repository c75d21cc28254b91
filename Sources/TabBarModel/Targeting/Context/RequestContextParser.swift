/// Reads a request's context from its query parameters one at a time, as ``RequestContext/parse(query:trustedCountry:)``
/// does from a list: a server can feed it the parameters as it walks them, without collecting them first.
public struct RequestContextParser: Sendable {
    private var context = RequestContext()
    /// The parameters other than `attr.NAME` read so far, one bit each.
    private var seen: UInt8 = 0

    /// A parser that has read nothing.
    public init() {}

    /// Reads one query parameter: a problem naming it when it is given twice, too long or malformed (the parse has
    /// then failed); nil when it was read or is not part of a context.
    public mutating func read(name: String, value: String) -> ContextProblem? {
        if name.utf8.starts(with: "attr.".utf8) {
            let attribute = String(name.dropFirst(5))
            if let problem = RequestContext.customProblem(attribute: attribute, value: value, among: context.custom) {
                return ContextProblem(parameter: name, message: problem)
            }
            context.custom[attribute] = value
            return nil
        }
        guard let parameter = RequestContext.Parameter(name) else { return nil }
        let bit = UInt8(1) << parameter.rawValue
        guard seen & bit == 0 else {
            return ContextProblem(parameter: name, message: "'\(name)' is given more than once")
        }
        seen |= bit
        if let problem = RequestContext.problem(parameter, value: value) {
            return ContextProblem(parameter: name, message: problem)
        }
        switch parameter {
        case .platform: context.platform = value
        case .appVersion: context.appVersion = value
        case .osVersion: context.osVersion = value
        case .country: context.country = value.utf8.contains(where: \.isASCIILowercase) ? value.uppercased() : value
        case .deviceId: context.deviceId = value
        }
        return nil
    }

    /// The context read, the trusted country header's value (`trustedCountry`) winning over `?country=` when it is
    /// a country code.
    public consuming func finish(trustedCountry: String? = nil) -> RequestContext {
        if let trustedCountry, RequestContext.isCountryCode(trustedCountry) {
            context.country = trustedCountry.uppercased()
        }
        return context
    }
}

/// Why a request's context cannot be used: the query parameter at fault and what is wrong with it.
public struct ContextProblem: Error, Sendable, Equatable {
    /// The query parameter, as sent (`appVersion`, `attr.tier`).
    public var parameter: String
    /// What is wrong, for the problem's detail.
    public var message: String

    /// Creates a problem.
    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }
}

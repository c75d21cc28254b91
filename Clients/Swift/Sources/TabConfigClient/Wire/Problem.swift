/// An RFC 9457 problem document, as the service answers every error.
public struct Problem: Codable, Sendable, Hashable, Error {
    /// A URI naming the kind of problem.
    public var type: String
    /// A short summary of the kind.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong with this request.
    public var detail: String
    /// The request's id (`X-Request-Id`), to find it in the service's log.
    public var instance: String?
    /// Each problem with the request's body (`pointer`) or a parameter (`parameter`).
    public var errors: [Item]?

    /// A value with the given members.
    public init(
        type: String, title: String, status: Int, detail: String, instance: String? = nil, errors: [Item]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
    }

    /// One problem, at a JSON pointer into the request body or in a named parameter.
    public struct Item: Codable, Sendable, Hashable {
        /// An RFC 6901 JSON pointer into the request body ("" for the whole body).
        public var pointer: String?
        /// The name of the path or query parameter.
        public var parameter: String?
        /// What is wrong there.
        public var message: String

        /// A value with the given members.
        public init(pointer: String? = nil, parameter: String? = nil, message: String) {
            self.pointer = pointer
            self.parameter = parameter
            self.message = message
        }
    }
}

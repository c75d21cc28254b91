/// The values a ``Router`` captured from `{name}` pattern segments, in pattern order. A route has a handful at most,
/// so they are kept in a list rather than hashed.
public struct PathParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var pairs: [(name: String, value: String)]

    /// No parameters.
    public init() {
        pairs = []
    }

    /// Parameters from a literal, in its order.
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value captured for `name`.
    public subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            pairs.removeAll { $0.name == name }
            if let newValue { pairs.append((name: name, value: newValue)) }
        }
    }

    /// Whether nothing was captured.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Appends a captured value, reserving room for `expected` in all on the first.
    mutating func append(_ name: String, _ value: String, expected: Int) {
        if pairs.isEmpty { pairs.reserveCapacity(expected) }
        pairs.append((name: name, value: value))
    }

    /// Equal when both hold the same names with the same values, whatever the order.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && lhs.pairs.allSatisfy { rhs[$0.name] == $0.value }
    }

    public var description: String {
        "[" + pairs.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

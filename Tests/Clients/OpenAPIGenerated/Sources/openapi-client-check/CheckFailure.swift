/// A decoded answer that does not say what the call expects.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }

    /// Throws `message` unless `condition` holds.
    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CheckFailure(message()) }
    }
}

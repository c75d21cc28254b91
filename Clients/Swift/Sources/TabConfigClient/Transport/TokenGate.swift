/// Holds back every request after the service refused a token (401 or 403) until the token provider gives a
/// different one, so that a refused token is not sent again and again.
struct TokenGate: Sendable {
    /// The token the service refused (`.some(nil)`: it refused a request without one); nil when none was refused.
    private(set) var refused: String??

    /// Whether a refused token is being held back.
    var isClosed: Bool { refused != nil }

    /// Whether `token`, what the provider gives now, may be sent: not when it is the refused one. A different one
    /// opens the gate.
    mutating func admits(_ token: String?) -> Bool {
        guard let refused else { return true }
        guard refused != token else { return false }
        self.refused = nil
        return true
    }

    /// Whether `token` is the one the service refused; the gate stays as it is.
    func refuses(_ token: String?) -> Bool {
        refused.map { $0 == token } ?? false
    }

    /// The service refused `token`.
    mutating func refuse(_ token: String?) {
        refused = .some(token)
    }
}

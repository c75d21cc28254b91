import Foundation

/// Writes raw bytes on a new connection and reads every response until the server closes it, or until none has
/// come for a while (`expectClose` false: then the connection is still open).
public struct RawExchange: Sendable {
    /// The responses, in order.
    public private(set) var responses: [TestResponse] = []
    /// Whether the server closed the connection.
    public private(set) var closed = false

    /// Sends `request` to 127.0.0.1:`port` and reads the answers: until the close when `expectClose`, else until a
    /// second passes without one.
    public init(port: Int, request: String, expectClose: Bool = true) throws {
        let client = try TestClient(port: port, timeout: expectClose ? 10 : 1)
        defer { client.close() }
        try client.sendRaw(Data(request.utf8))
        while true {
            do {
                responses.append(try client.readResponse())
            } catch let error as TestClientError where error.description.contains("closed the connection") {
                closed = true
                return
            } catch let error as TestClientError where error.description.contains("no data from the server") {
                return
            }
        }
    }
}

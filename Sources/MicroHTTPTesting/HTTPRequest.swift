import Foundation

/// One-shot helper: new connection, one request, close.
public func httpRequest(
    port: Int,
    _ method: String,
    _ target: String,
    headers: [(String, String)] = [],
    body: Data? = nil
) throws -> TestResponse {
    let client = try TestClient(port: port)
    defer { client.close() }
    return try client.send(method, target, headers: headers, body: body)
}

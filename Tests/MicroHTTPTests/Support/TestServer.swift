import Foundation
import MicroHTTP
import TestSupport

/// Starts a real server on 127.0.0.1 port 0, runs `body` with it, then shuts it down gracefully.
func withServer<T>(
    _ responder: any Responder,
    configure: (inout Server.Configuration) -> Void = { _ in },
    logs: LogCapture = LogCapture(),
    _ body: (Server) throws -> T
) throws -> T {
    var configuration = Server.Configuration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configure(&configuration)
    let server = Server(configuration: configuration, responder: responder, logger: logs.logger)
    try server.start()
    defer { server.shutdown(gracePeriod: .seconds(5)) }
    return try body(server)
}


import HTTPTypes
import OpenAPIRuntime

import struct Foundation.URL

/// Sends the admin token with every call but the user endpoints', which the server leaves open on loopback.
struct AdminBearer: ClientMiddleware {
    var token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.path?.contains("/users/") != true {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-None-Match` and `If-Match` as the caller gave them. swift-openapi-runtime (1.13.4) writes every header
/// parameter as a percent-encoded URI component, so the ETag `"c1"` leaves as `%22c1%22`, which names no
/// representation: the server answers 200 where 304 was meant, 412 to a conditional write. tabconfig's entity tags
/// hold no `%`, so decoding gives back exactly the tag.
struct UnescapedEntityTags: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifNoneMatch, .ifMatch] {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}

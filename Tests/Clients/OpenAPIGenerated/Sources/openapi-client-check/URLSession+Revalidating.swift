import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// What openapi.yaml recommends to a client that revalidates by itself (keeps the tab bar and its ETag, sends
    /// `If-None-Match`): no HTTP cache, so every GET reaches the server and a 304 stays a 304.
    static func revalidating() -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }
}

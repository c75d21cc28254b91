import Foundation

/// The server's own counts from `GET /metrics`, read through the generated client: `http_requests_total` by method,
/// route pattern and status, and `tabconfig_event_subscribers`.
struct RequestCounter {
    let client: Client

    /// The value of the first sample of `name` whose labels include every one of `labels`, 0 when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) async throws -> Double {
        let text = try await String(collecting: client.getMetrics().ok.body.plainText, upTo: 1 << 22)
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let rest = line.dropFirst(name.count)
            guard rest.first == "{" || rest.first == " ", let space = rest.lastIndex(of: " ") else { continue }
            let labelText = rest[..<space]
            if labels.allSatisfy({ labelText.contains("\($0.key)=\"\($0.value)\"") }),
                let value = Double(rest[rest.index(after: space)...])
            {
                return value
            }
        }
        return 0
    }

    /// `http_requests_total` of GET requests on `route` answered `status`.
    func requests(_ route: String, status: Int) async throws -> Int {
        Int(try await value("http_requests_total", ["method": "GET", "route": route, "status": String(status)]))
    }

    /// The count once it differs from `previous`, or `previous` when it has not changed within `seconds`: the
    /// server counts a request when it has finished sending the answer, a moment after the client has it.
    func requests(_ route: String, status: Int, changedFrom previous: Int, within seconds: Double = 1) async throws
        -> Int
    {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let count = try await requests(route, status: status)
            if count != previous || Date() >= deadline { return count }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Returns once the server has an event stream open, or throws after five seconds.
    func waitForSubscriber() async throws {
        let deadline = Date().addingTimeInterval(5)
        while try await value("tabconfig_event_subscribers") < 1 {
            guard Date() < deadline else { throw CheckFailure("no event stream open after 5 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

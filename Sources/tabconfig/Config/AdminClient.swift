import Dispatch
import Foundation
import Synchronization
import TabBarAPI
import TabBarModel

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The admin API of a running tabconfig, as `export` and `apply` use it: one request at a time over `URLSession`,
/// with the admin token as a bearer token.
struct AdminClient {
    /// An answer: its status and body.
    struct Reply: Sendable {
        var status: Int
        var body: Data

        /// The body read as `type`; a body that does not read is a ``Failure`` naming `request` (a path or a file).
        func decode<T: Decodable>(_ type: T.Type, answering request: String) throws -> T {
            do {
                return try JSONDecoder().decode(type, from: body)
            } catch {
                throw Failure(description: "\(request): the answer (\(status)) is not what tabconfig expects: \(error)")
            }
        }

        /// What the server refused, for people: its problem+json's status, title and detail, then each entry
        /// (`POINTER: MESSAGE`); a body of another kind as status and text.
        var problemLines: [String] {
            guard let problem = try? JSONDecoder().decode(Problem.self, from: body) else {
                let text = String(decoding: body.prefix(200), as: UTF8.self)
                return ["\(status): \(text.isEmpty ? "no body" : text)"]
            }
            return ["\(problem.status) \(problem.title): \(problem.detail)"] + (problem.errors ?? []).map(\.line)
        }
    }

    /// No answer (the server is unreachable), or an answer that is not what the command needs.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A live client as `GET /v1/clients` lists it.
    struct LiveClient: Decodable {
        var client: String
        var version: Int
    }

    private struct ClientList: Decodable {
        var clients: [LiveClient]
    }

    /// What `export` reads of `GET …/config`: the version and its source document.
    struct LiveConfig: Decodable {
        var version: Int
        var config: TabBarConfig
    }

    /// The service, e.g. `http://127.0.0.1:8080` (a path is kept as a prefix).
    let baseURL: URL
    let token: String
    private let session = URLSession(configuration: .ephemeral)

    init(baseURL: URL, token: String) {
        self.baseURL = baseURL
        self.token = token
    }

    /// `GET /v1/clients`: every live client with its version, by id.
    func clients() throws -> [LiveClient] {
        let path = "/v1/clients"
        return try expect(200, send("GET", path), path).decode(ClientList.self, answering: path).clients
    }

    /// `GET /v1/clients/{client}/config`: the live version and its document.
    func liveConfig(_ client: String) throws -> LiveConfig {
        let path = "/v1/clients/\(client)/config"
        return try expect(200, send("GET", path), path).decode(LiveConfig.self, answering: path)
    }

    /// `PUT /v1/clients/{client}/config`: publishes `document`, or with `dryRun` only asks what it would change.
    /// `headers` carry the conditions; the caller reads the reply, refusals included.
    func putConfig(
        _ client: String, document: Data, dryRun: Bool, note: String?, headers: [String: String] = [:]
    ) throws -> Reply {
        var query: [(String, String)] = dryRun ? [("dryRun", "true")] : []
        if let note { query.append(("note", note)) }
        return try send(
            "PUT", "/v1/clients/\(client)/config", query: query,
            headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: document)
    }

    /// Sends one request and waits for the whole answer; a transport error is a ``Failure``.
    func send(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: Data? = nil
    ) throws -> Reply {
        let url = self.url(path, query: query)
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let outcome = Mutex<Result<Reply, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let result: Result<Reply, Failure>
            if let status = (response as? HTTPURLResponse)?.statusCode, error == nil {
                result = .success(Reply(status: status, body: data ?? Data()))
            } else {
                let reason = error?.localizedDescription ?? "no HTTP answer"
                result = .failure(Failure(description: "cannot reach \(baseURL.absoluteString): \(reason)"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        done.wait()
        // The handler stored its result before signalling.
        return try outcome.withLock { $0! }.get()
    }

    /// The service's URL for `path` (which starts with `/`) and `query`, each value percent-encoded.
    private func url(_ path: String, query: [(String, String)]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let prefix = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = prefix + path
        components.percentEncodedQuery = query.isEmpty ? nil : query.map { "\($0)=\(Self.encoded($1))" }
            .joined(separator: "&")
        return components.url ?? baseURL
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private func expect(_ status: Int, _ reply: Reply, _ path: String) throws -> Reply {
        guard reply.status == status else {
            throw Failure(description: "\(path): " + reply.problemLines.joined(separator: "; "))
        }
        return reply
    }
}

import Foundation
import MicroHTTP
import Synchronization

/// A responder that answers `GET /fast` from the request head with a prepared response, records what each head showed
/// it, and answers everything else through `respond(to:)`, counting those calls.
final class HeadResponder: Responder {
    static let prepared = PreparedResponse(
        status: 200, headers: ["Content-Type": "text/plain", "ETag": "\"fast\""], body: Data("from the head".utf8))

    /// What each head looked like: method, path, `?q=`, the `X-Probe` header.
    let heads = Mutex<[String]>([])
    let respondCalls = Atomic<Int>(0)

    func preparedAnswer(to head: RequestHead) -> PreparedResponse? {
        let path = head.withPath { String(decoding: $0, as: UTF8.self) }
        heads.withLock {
            $0.append("\(head.method) \(path) q=\(head.query("q") ?? "nil") probe=\(head.header("x-probe") ?? "nil")")
        }
        return path == "/fast" ? Self.prepared : nil
    }

    func respond(to request: Request) -> Response {
        respondCalls.add(1, ordering: .relaxed)
        return Response(status: 200, body: Data("from respond \(request.method)".utf8))
    }
}

import Foundation
import MicroHTTP
import Synchronization

/// A responder that answers `GET /fast` from the request head with a prepared response and `GET /built` with one
/// built for the request, records what each head showed it, and answers everything else through `respond(to:)`,
/// counting those calls.
final class HeadResponder: Responder {
    static let prepared = PreparedResponse(
        status: 200, headers: ["Content-Type": "text/plain", "ETag": "\"fast\""], body: Data("from the head".utf8))

    /// What each head looked like: method, path, `?q=`, the `X-Probe` header.
    let heads = Mutex<[String]>([])
    let respondCalls = Atomic<Int>(0)

    func headAnswer(to head: RequestHead) -> Response? {
        let path = head.withPath { String(decoding: $0, as: UTF8.self) }
        heads.withLock {
            $0.append("\(head.method) \(path) q=\(head.query("q") ?? "nil") probe=\(head.header("x-probe") ?? "nil")")
        }
        switch path {
        case "/fast": return Response(prepared: Self.prepared)
        case "/built": return Response(status: 201, headers: ["X-Query": head.query("q") ?? "none"], body: Data("built".utf8))
        default: return nil
        }
    }

    func respond(to request: Request) -> Response {
        respondCalls.add(1, ordering: .relaxed)
        return Response(status: 200, body: Data("from respond \(request.method)".utf8))
    }
}

import Foundation
import MicroHTTP
import Synchronization

/// Answers `/events` with a new open event stream (kept in ``streams``) and any other path with "ok".
final class StreamingResponder: Responder {
    private let opened = Mutex<[ResponseStream]>([])
    private let early: Data?

    /// `early` is written to each stream before the response is returned.
    init(early: Data? = nil) {
        self.early = early
    }

    func respond(to request: Request) -> Response {
        guard request.path == "/events" else {
            return Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8))
        }
        let stream = ResponseStream()
        if let early {
            stream.write(early)
        }
        opened.withLock { $0.append(stream) }
        return Response(status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"], stream: stream)
    }

    /// The streams handed out so far, oldest first.
    var streams: [ResponseStream] {
        opened.withLock { $0 }
    }
}

import Foundation
import MicroHTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Answers `/events` with a new open event stream (kept in ``streams``) and any other path with "ok".
///
/// Records the CPU-time clock of every worker thread that called it, to check that idle streams cost no CPU.
final class StreamingResponder: Responder {
    private let opened = Mutex<[ResponseStream]>([])
    private let clocks = Mutex<Set<clockid_t>>([])
    private let early: Data?

    /// `early` is written to each stream before the response is returned.
    init(early: Data? = nil) {
        self.early = early
    }

    func respond(to request: Request) -> Response {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 {
            _ = clocks.withLock { $0.insert(clock) }
        }
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

    /// CPU seconds used so far by the worker threads that called the responder.
    var workerCPUSeconds: Double {
        clocks.withLock { $0 }.reduce(0) { total, clock in
            var time = timespec()
            guard clock_gettime(clock, &time) == 0 else {
                return total
            }
            return total + Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        }
    }
}

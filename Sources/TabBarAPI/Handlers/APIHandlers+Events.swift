import Foundation
import MicroHTTP

extension APIHandlers {
    /// `GET /v1/clients/{client}/tabs/events`: a server-sent-event stream of the client's live versions.
    func tabEvents(_ request: Request) throws -> Response {
        let client = try request.clientID()
        _ = try requireLive(client)
        let lastEventID = request.headers["Last-Event-ID"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let stream = ResponseStream()
        let accepted = catalog.events.subscribe(client: client, stream: stream, lastEventID: lastEventID) {
            self.catalog.live(client)
        }
        guard accepted else {
            throw APIError.tooManyEventStreams
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Accel-Buffering", value: "no")
        return Response(status: 200, headers: headers, stream: stream)
    }
}

import Foundation
import MicroHTTP

extension TestClient {
    /// How the body of a response opened with ``openStream(_:_:headers:)`` is delimited.
    enum BodyFraming {
        case chunked
        case length(remaining: Int)
        case untilClose
    }

    /// Sends a request and returns as soon as the response head has arrived (body empty); read the body with readBodyChunk().
    ///
    /// Once the body has been read to its end, the connection can send the next request.
    public func openStream(_ method: String, _ target: String, headers: [(String, String)] = []) throws -> TestResponse {
        bodyFraming = nil
        unreturnedBody = Data()
        try writeRequest(method, target, headers: headers, body: nil)
        while true {
            let (status, fields) = try Self.parseHead(readHead())
            if (100...199).contains(status) {
                continue
            }
            bodyFraming = try Self.framing(method: method, status: status, headers: fields)
            return TestResponse(status: status, headers: fields, body: Data())
        }
    }

    /// The next piece of body data (chunked encoding decoded), blocking up to the client's timeout; nil at the end of the body.
    ///
    /// Throws if no data arrives within ``timeout`` seconds or the connection breaks off mid-body.
    public func readBodyChunk() throws -> Data? {
        if !unreturnedBody.isEmpty {
            defer { unreturnedBody = Data() }
            return unreturnedBody
        }
        switch bodyFraming {
        case nil:
            return nil
        case .chunked:
            guard let chunk = try readChunk() else {
                bodyFraming = nil
                return nil
            }
            return chunk
        case .length(let remaining):
            guard let data = try readSome(limit: remaining) else {
                throw TestClientError("the server closed the connection with \(remaining) body bytes missing")
            }
            bodyFraming = data.count == remaining ? nil : .length(remaining: remaining - data.count)
            return data
        case .untilClose:
            guard let data = try readSome(limit: 64 * 1024) else {
                bodyFraming = nil
                return nil
            }
            return data
        }
    }

    /// Reads body data up to and including the first occurrence of `marker` (e.g. "\n\n" after an event);
    /// what follows it is kept for the next read. Throws if the body ends first.
    public func readBody(until marker: Data) throws -> Data {
        if marker.isEmpty {
            return Data()
        }
        var collected = unreturnedBody
        unreturnedBody = Data()
        while true {
            if let range = collected.range(of: marker) {
                unreturnedBody = Data(collected[range.upperBound...])
                return Data(collected[..<range.upperBound])
            }
            guard let chunk = try readBodyChunk() else {
                unreturnedBody = collected
                throw TestClientError("the body ended before \(String(decoding: marker, as: UTF8.self).debugDescription)")
            }
            collected.append(chunk)
        }
    }

    private static func framing(method: String, status: Int, headers: HTTPHeaders) throws -> BodyFraming? {
        if method == "HEAD" || status == 204 || status == 304 {
            return nil
        }
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            return .chunked
        }
        if let length = headers["Content-Length"] {
            guard let count = Int(length.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                throw TestClientError("invalid Content-Length: \(length)")
            }
            return count == 0 ? nil : .length(remaining: count)
        }
        return .untilClose
    }
}

import Foundation

extension SavedTabOrderBody {
    /// The body as `JSONCoding` encodes it, written directly when every id is plain (the usual case).
    var json: Data {
        guard DirectJSON.arePlain([hidden, ignored, order]) else {
            return JSONCoding.encode(self)
        }
        var body: [UInt8] = []
        body.reserveCapacity(128)
        body.append(UInt8(ascii: "{"))
        DirectJSON.appendMember("hidden", hidden, to: &body)
        body.append(UInt8(ascii: ","))
        DirectJSON.appendMember("ignored", ignored, to: &body)
        body.append(UInt8(ascii: ","))
        DirectJSON.appendMember("order", order, to: &body)
        body.append(contentsOf: ",\"revision\":\(revision)}".utf8)
        return Data(body)
    }
}

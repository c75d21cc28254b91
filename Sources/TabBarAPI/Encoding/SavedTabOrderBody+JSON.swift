import Foundation
import TabBarModel

extension SavedTabOrderBody {
    /// The body as `CanonicalJSON` encodes it, written directly when every id is plain (the usual case).
    var json: Data {
        var body: [UInt8] = []
        body.reserveCapacity(128)
        body.append(UInt8(ascii: "{"))
        guard DirectJSON.appendMember("hidden", hidden, to: &body) else { return CanonicalJSON.encode(self) }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("ignored", ignored, to: &body) else { return CanonicalJSON.encode(self) }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("order", order, to: &body) else { return CanonicalJSON.encode(self) }
        DirectJSON.append(",\"revision\":", to: &body)
        DirectJSON.appendDecimal(revision, to: &body)
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }
}

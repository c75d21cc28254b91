import Foundation
import TabBarModel

extension JournalRecord {
    /// The record as compact JSON, written by `DirectJSON` (what `JSONEncoder` would give, member order aside); the
    /// format `JournalRecord`'s `Codable` conformance reads.
    func json() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(UInt8(ascii: "{"))
        if let sequence {
            DirectJSON.append(#""seq":"#, to: &out)
            DirectJSON.appendDecimal(sequence, to: &out)
            out.append(UInt8(ascii: ","))
        }
        switch change {
        case .put(let key, let revision, let value):
            Self.appendOperation(#""op":"put","client":"#, key: key, revision: revision, to: &out)
            DirectJSON.append(#","value":"#, to: &out)
            if let value {
                value.appendJSON(to: &out)
            } else {
                DirectJSON.append("null", to: &out)
            }
        case .delete(let key, let revision):
            Self.appendOperation(#""op":"delete","client":"#, key: key, revision: revision, to: &out)
        case .deleteClient(let client, let lastVersion):
            DirectJSON.append(#""op":"deleteClient","client":"#, to: &out)
            DirectJSON.appendString(client, to: &out)
            if let lastVersion {
                DirectJSON.append(#","lastVersion":"#, to: &out)
                DirectJSON.appendDecimal(lastVersion, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// Decodes a payload: the fast reader for the usual record, `JSONDecoder` for anything it leaves.
    static func decode(json payload: UnsafeRawBufferPointer, decoder: JSONDecoder) throws -> JournalRecord {
        if let record = try? RecordJSONReader.record(payload) {
            return record
        }
        return try decoder.decode(JournalRecord.self, from: Data(payload))
    }

    private static func appendOperation(
        _ opAndClient: StaticString, key: CustomizationKey, revision: UInt64, to out: inout [UInt8]
    ) {
        DirectJSON.append(opAndClient, to: &out)
        DirectJSON.appendString(key.client, to: &out)
        DirectJSON.append(#","user":"#, to: &out)
        DirectJSON.appendString(key.user, to: &out)
        DirectJSON.append(#","revision":"#, to: &out)
        DirectJSON.appendDecimal(revision, to: &out)
    }
}

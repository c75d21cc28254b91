import Foundation

extension JournalRecord {
    /// The record as compact JSON, written directly (what `JSONEncoder` would give, member order aside); the
    /// format `JournalRecord`'s `Codable` conformance reads.
    func json() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(UInt8(ascii: "{"))
        if let sequence {
            Self.appendKey("seq", to: &out)
            Self.appendNumber(sequence, to: &out)
            out.append(UInt8(ascii: ","))
        }
        switch change {
        case .put(let key, let revision, let value):
            Self.appendOperation("put", key: key, revision: revision, to: &out)
            out.append(contentsOf: #","value":"#.utf8)
            if let value {
                out.append(contentsOf: #"{"order":"#.utf8)
                Self.appendStrings(value.order, to: &out)
                out.append(contentsOf: #","hidden":"#.utf8)
                Self.appendStrings(value.hidden, to: &out)
                out.append(UInt8(ascii: "}"))
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .delete(let key, let revision):
            Self.appendOperation("delete", key: key, revision: revision, to: &out)
        case .deleteClient(let client, let lastVersion):
            out.append(contentsOf: #""op":"deleteClient","client":"#.utf8)
            Self.appendString(client, to: &out)
            if let lastVersion {
                out.append(contentsOf: #","lastVersion":"#.utf8)
                out.append(contentsOf: String(lastVersion).utf8)
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

    private static func appendOperation(_ op: String, key: CustomizationKey, revision: UInt64, to out: inout [UInt8]) {
        out.append(contentsOf: #""op":""#.utf8)
        out.append(contentsOf: op.utf8)
        out.append(contentsOf: #"","client":"#.utf8)
        appendString(key.client, to: &out)
        out.append(contentsOf: #","user":"#.utf8)
        appendString(key.user, to: &out)
        out.append(contentsOf: #","revision":"#.utf8)
        appendNumber(revision, to: &out)
    }

    private static func appendKey(_ key: String, to out: inout [UInt8]) {
        appendString(key, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func appendNumber(_ value: UInt64, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    private static func appendStrings(_ strings: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(string, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A JSON string: `"` and `\` escaped, control characters as escapes, everything else as UTF-8.
    private static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

import TabBarModel

/// A reader of the JSON the store writes for its records, fast enough to replay a million of them at startup.
///
/// It accepts exactly the JSON grammar (any key order, whitespace, escapes), but only values of the shapes a record
/// has; anything else (or a duplicate key) makes it give up by throwing, and the caller falls back to `JSONDecoder`,
/// which then decides. So it never changes what a payload means, only how fast the usual one is read.
struct RecordJSONReader {
    /// The payload is outside the fast path.
    struct Unsupported: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads a whole record payload.
    static func record(_ bytes: UnsafeRawBufferPointer) throws -> JournalRecord {
        var reader = RecordJSONReader(bytes)
        let record = try reader.readRecord()
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw Unsupported() }
        return record
    }

    /// Reads a whole customization value (`{"order": [...], "hidden": [...]}`).
    static func customization(_ bytes: UnsafeRawBufferPointer) throws -> StoredCustomization {
        var reader = RecordJSONReader(bytes)
        reader.skipWhitespace()
        let value = try reader.readCustomization()
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw Unsupported() }
        return value
    }

    /// Reads a whole ``ChangeNotice`` payload, as PostgreSQL's `json_build_object` or `JSONEncoder` writes it.
    static func notice(_ bytes: UnsafeRawBufferPointer) throws -> ChangeNotice {
        var reader = RecordJSONReader(bytes)
        reader.skipWhitespace()
        let notice = try reader.readNotice()
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw Unsupported() }
        return notice
    }

    private mutating func readNotice() throws -> ChangeNotice {
        var kind: ChangeNotice.Kind?
        var origin: String?
        var client: String?
        var notice = ChangeNotice(kind: .customization, origin: "", client: "")
        try readObject { reader, key in
            switch key {
            case "k": kind = ChangeNotice.Kind(rawValue: try reader.readString())
            case "o": origin = try reader.readString()
            case "c": client = try reader.readString()
            case "v": notice.version = try reader.readNull() ? nil : try reader.readInteger()
            case "p": notice.prunedThrough = try reader.readNull() ? nil : try reader.readInteger()
            case "u": notice.user = try reader.readNull() ? nil : try reader.readString()
            case "r": notice.revision = try reader.readNull() ? nil : Int64(try reader.readInteger())
            case "j": notice.value = try reader.readNull() ? nil : try reader.readCustomization()
            case "f": notice.fetch = try reader.readNull() ? nil : try reader.readBool()
            case "e": notice.entries = try reader.readNull() ? nil : try reader.readArray { try $0.readNoticeEntry() }
            default: throw Unsupported()
            }
        }
        guard let kind, let origin, let client else { throw Unsupported() }
        notice.kind = kind
        notice.origin = origin
        notice.client = client
        return notice
    }

    private mutating func readNoticeEntry() throws -> ChangeNotice.Entry {
        var user: String?
        var revision: Int64?
        var entry = ChangeNotice.Entry(user: "", revision: 0)
        try readObject { reader, key in
            switch key {
            case "u": user = try reader.readString()
            case "r": revision = Int64(try reader.readInteger())
            case "j": entry.value = try reader.readNull() ? nil : try reader.readCustomization()
            case "f": entry.fetch = try reader.readNull() ? nil : try reader.readBool()
            default: throw Unsupported()
            }
        }
        guard let user, let revision else { throw Unsupported() }
        entry.user = user
        entry.revision = revision
        return entry
    }

    private mutating func readRecord() throws -> JournalRecord {
        var op: String?
        var sequence: UInt64?
        var client: String?
        var user: String?
        var revision: UInt64?
        var value: StoredCustomization??
        var lastVersion: Int??
        try readObject { reader, key in
            switch key {
            case "op": op = try reader.readString()
            case "seq": sequence = try reader.readUnsigned()
            case "client": client = try reader.readString()
            case "user": user = try reader.readString()
            case "revision": revision = try reader.readUnsigned()
            case "value": value = try reader.readNull() ? .some(nil) : .some(try reader.readCustomization())
            case "lastVersion": lastVersion = try reader.readNull() ? .some(nil) : .some(Int(exactly: try reader.readUnsigned()))
            default: throw Unsupported()
            }
        }
        guard let op, let client else { throw Unsupported() }
        switch op {
        case "put":
            guard let user, let revision, let value else { throw Unsupported() }
            return JournalRecord(
                sequence: sequence, change: .put(CustomizationKey(client: client, user: user), revision: revision, value: value))
        case "delete":
            guard let user, let revision, value == nil else { throw Unsupported() }
            return JournalRecord(sequence: sequence, change: .delete(CustomizationKey(client: client, user: user), revision: revision))
        case "deleteClient":
            guard user == nil, revision == nil, value == nil else { throw Unsupported() }
            if let lastVersion, lastVersion == nil { throw Unsupported() }
            return JournalRecord(sequence: sequence, change: .deleteClient(client, lastVersion: lastVersion ?? nil))
        default:
            throw Unsupported()
        }
    }

    private mutating func readCustomization() throws -> StoredCustomization {
        var order: [String]?
        var hidden: [String]?
        var dynamicTabs: [DynamicTab] = []
        try readObject { reader, key in
            switch key {
            case "order": order = try reader.readStrings()
            case "hidden": hidden = try reader.readStrings()
            case "dynamicTabs": dynamicTabs = try reader.readArray { try $0.readDynamicTab() }
            default: throw Unsupported()
            }
        }
        guard let order, let hidden else { throw Unsupported() }
        return StoredCustomization(order: order, hidden: hidden, dynamicTabs: dynamicTabs)
    }

    /// Reads `{ "key": value, ... }`, handing each key to `member`, which must read the value; duplicates give up.
    private mutating func readObject(_ member: (inout RecordJSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var seen: [String] = []
        while true {
            skipWhitespace()
            let key = try readString()
            guard !seen.contains(key) else { throw Unsupported() }
            seen.append(key)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func readStrings() throws -> [String] {
        try readArray { try $0.readString() }
    }

    /// Reads `[ element, ... ]`, each element read by `element`.
    private mutating func readArray<Element>(_ element: (inout RecordJSONReader) throws -> Element) throws -> [Element] {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        var elements: [Element] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try element(&self))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            return elements
        }
    }

    /// An open tab: `{"template", "name", "parameters"?, "title"?}`.
    private mutating func readDynamicTab() throws -> DynamicTab {
        var template: String?
        var name: String?
        var parameters: [String: String] = [:]
        var title: String?
        try readObject { reader, key in
            switch key {
            case "template": template = try reader.readString()
            case "name": name = try reader.readString()
            case "parameters":
                try reader.readObject { reader, key in parameters[key] = try reader.readString() }
            case "title": title = try reader.readNull() ? nil : try reader.readString()
            default: throw Unsupported()
            }
        }
        guard let template, let name else { throw Unsupported() }
        return DynamicTab(template: template, name: name, parameters: parameters, title: title)
    }

    /// A string without escapes is decoded straight from the bytes (ASCII without validating); one with escapes
    /// gives up.
    private mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if isASCII {
                    return String(decoding: text, as: UTF8.self)
                }
                guard let string = String(validating: text, as: UTF8.self) else { throw Unsupported() }
                return string
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { throw Unsupported() }
            isASCII = isASCII && byte < 0x80
            position += 1
        }
        throw Unsupported()
    }

    /// A non-negative integer without sign, fraction or exponent that fits in 64 bits.
    private mutating func readUnsigned() throws -> UInt64 {
        let start = position
        var value: UInt64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Unsupported() }
            value = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Unsupported() }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw Unsupported()
        }
        return value
    }

    /// An integer, possibly negative, that fits in an `Int`.
    private mutating func readInteger() throws -> Int {
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        let magnitude = try readUnsigned()
        guard let value = negative ? Int(exactly: -Int128(magnitude)) : Int(exactly: magnitude) else {
            throw Unsupported()
        }
        return value
    }

    /// `true` or `false`.
    private mutating func readBool() throws -> Bool {
        for (literal, value) in [("true", true), ("false", false)] {
            let end = position + literal.utf8.count
            if end <= bytes.count, bytes[position..<end].elementsEqual(literal.utf8) {
                position = end
                return value
            }
        }
        throw Unsupported()
    }

    /// Consumes `null` if it is next.
    private mutating func readNull() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        guard position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { throw Unsupported() }
        position += 4
        return true
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw Unsupported() }
        position += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }
}

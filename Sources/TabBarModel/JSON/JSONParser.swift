import Foundation

/// A strict RFC 8259 JSON parser: no trailing commas, no comments, valid UTF-8 only, bounded nesting.
/// Unlike `JSONDecoder` it says where a syntax error is and keeps duplicate object keys for the caller to report.
struct JSONParser {
    /// Deeper documents are rejected as malformed instead of risking the stack.
    static let maximumDepth = 100

    private let bytes: [UInt8]
    private let replacingInvalidUTF8: Bool
    private var index = 0
    private var depth = 0

    private init(bytes: [UInt8], replacingInvalidUTF8: Bool) {
        self.bytes = bytes
        self.replacingInvalidUTF8 = replacingInvalidUTF8
    }

    /// Parses one complete JSON document. With `replacingInvalidUTF8`, a string holding bytes that are not UTF-8 is
    /// read with U+FFFD in their place (for a caller whose rules refuse that character with a pointer, a 422 rather
    /// than a syntax error); otherwise it is a syntax error.
    static func parse(_ data: Data, replacingInvalidUTF8: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data), replacingInvalidUTF8: replacingInvalidUTF8)
        return try parser.parseDocument()
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(currentDescription) after the JSON value")
        }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else {
            throw failure("unexpected end of input, expected a value")
        }
        switch bytes[index] {
        case Byte.openBrace:
            return try parseObject()
        case Byte.openBracket:
            return try parseArray()
        case Byte.quote:
            return .string(try parseString())
        case Byte.lowercaseT:
            try parseLiteral("true")
            return .bool(true)
        case Byte.lowercaseF:
            try parseLiteral("false")
            return .bool(false)
        case Byte.lowercaseN:
            try parseLiteral("null")
            return .null
        case Byte.minus, Byte.zero...Byte.nine:
            return try parseNumber()
        default:
            throw failure("unexpected \(currentDescription), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if peek() == Byte.closeBrace {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == Byte.quote else {
                throw failure("unexpected \(currentDescription), expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek() == Byte.colon else {
                throw failure("unexpected \(currentDescription), expected ':'")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, value: try parseValue()))
            skipWhitespace()
            switch peek() {
            case Byte.comma:
                index += 1
            case Byte.closeBrace:
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw failure("unexpected \(currentDescription), expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == Byte.closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case Byte.comma:
                index += 1
            case Byte.closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure("unexpected \(currentDescription), expected ',' or ']'")
            }
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            var error = failure("nesting deeper than \(Self.maximumDepth) levels")
            error.isTooDeep = true
            throw error
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        // Most strings hold no escape: made straight from the document's bytes, with no buffer to copy them into
        // (an OFREP context is a dozen short strings parsed on every request).
        var end = index
        var highBits: UInt8 = 0
        while end < bytes.count, bytes[end] != Byte.quote, bytes[end] != Byte.backslash, bytes[end] >= 0x20 {
            highBits |= bytes[end]
            end += 1
        }
        if end < bytes.count, bytes[end] == Byte.quote {
            let content = bytes[index..<end]
            // ASCII needs no validation (`String(validating:)` takes a generic, unspecialized path).
            if highBits < 0x80 {
                index = end + 1
                return content.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            }
            if let string = String(validating: content, as: UTF8.self) {
                index = end + 1
                return string
            }
            guard replacingInvalidUTF8 else {
                index = start
                throw failure("string is not valid UTF-8")
            }
            index = end + 1
            return String(decoding: content, as: UTF8.self)
        }
        var buffer = Array(bytes[index..<end])
        index = end
        while true {
            guard index < bytes.count else {
                throw failure("unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case Byte.quote:
                index += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    if replacingInvalidUTF8 { return String(decoding: buffer, as: UTF8.self) }
                    index = start
                    throw failure("string is not valid UTF-8")
                }
                return string
            case Byte.backslash:
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw failure("unescaped control character in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        index += 1
        guard index < bytes.count else {
            throw failure("unterminated string")
        }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case Byte.quote, Byte.backslash, Byte.slash:
            buffer.append(escaped)
        case Byte.lowercaseB:
            buffer.append(0x08)
        case Byte.lowercaseF:
            buffer.append(0x0C)
        case Byte.lowercaseN:
            buffer.append(0x0A)
        case Byte.lowercaseR:
            buffer.append(0x0D)
        case Byte.lowercaseT:
            buffer.append(0x09)
        case Byte.lowercaseU:
            let scalar = try parseUnicodeEscape()
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            index -= 1
            throw failure("invalid escape sequence")
        }
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try parseHexQuad()
        switch first {
        case 0xD800...0xDBFF:
            guard peek() == Byte.backslash, peek(offset: 1) == Byte.lowercaseU else {
                throw failure("unpaired UTF-16 surrogate in \\u escape")
            }
            index += 2
            let second = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("unpaired UTF-16 surrogate in \\u escape")
            }
            let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else {
                throw failure("invalid \\u escape")
            }
            return scalar
        case 0xDC00...0xDFFF:
            throw failure("unpaired UTF-16 surrogate in \\u escape")
        default:
            guard let scalar = Unicode.Scalar(first) else {
                throw failure("invalid \\u escape")
            }
            return scalar
        }
    }

    private mutating func parseHexQuad() throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                throw failure("invalid \\u escape, expected four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek() == Byte.minus {
            index += 1
        }
        if peek() == Byte.zero {
            index += 1
        } else if isDigit(peek()) {
            skipDigits()
        } else {
            throw failure("invalid number, expected a digit")
        }
        if peek() == Byte.period {
            isInteger = false
            index += 1
            guard isDigit(peek()) else {
                throw failure("invalid number, expected a digit after '.'")
            }
            skipDigits()
        }
        if peek() == Byte.lowercaseE || peek() == Byte.uppercaseE {
            isInteger = false
            index += 1
            if peek() == Byte.plus || peek() == Byte.minus {
                index += 1
            }
            guard isDigit(peek()) else {
                throw failure("invalid number, expected a digit in the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .integer(integer)
        }
        guard let double = Double(text) else {
            index = start
            throw failure("invalid number")
        }
        return .double(double)
    }

    private mutating func parseLiteral(_ literal: String) throws(JSONSyntaxError) {
        for byte in literal.utf8 {
            guard peek() == byte else {
                throw failure("unexpected \(currentDescription), expected '\(literal)'")
            }
            index += 1
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn:
                index += 1
            default:
                return
            }
        }
    }

    private mutating func skipDigits() {
        while isDigit(peek()) {
            index += 1
        }
    }

    private func peek(offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (Byte.zero...Byte.nine).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case Byte.zero...Byte.nine: byte - Byte.zero
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private var currentDescription: String {
        guard index < bytes.count else {
            return "end of input"
        }
        let byte = bytes[index]
        if (0x21...0x7E).contains(byte) {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func failure(_ reason: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == Byte.newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(reason: reason, line: line, column: column)
    }
}

/// ASCII bytes the parser looks at.
private enum Byte {
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let period = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let lowercaseB = UInt8(ascii: "b")
    static let lowercaseE = UInt8(ascii: "e")
    static let uppercaseE = UInt8(ascii: "E")
    static let lowercaseF = UInt8(ascii: "f")
    static let lowercaseN = UInt8(ascii: "n")
    static let lowercaseR = UInt8(ascii: "r")
    static let lowercaseT = UInt8(ascii: "t")
    static let lowercaseU = UInt8(ascii: "u")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}

/// Why a body is not JSON at all, with the line and column where parsing stopped.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: String
    var line: Int
    var column: Int
    /// The document is JSON nested deeper than ``JSONParser/maximumDepth``, not a syntax error as such.
    var isTooDeep = false

    var description: String {
        "\(reason) at line \(line), column \(column)"
    }
}

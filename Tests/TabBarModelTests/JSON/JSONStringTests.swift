import Foundation
import Testing

@testable import TabBarModel

/// Strings through the project's own JSON reader and writer (`JSONParser`, `DirectJSON.appendString`): both take a
/// fast path for strings that need no escape, and must agree with the slow one and with Foundation.
@Suite("JSON strings: parser and writer")
struct JSONStringTests {
    /// The string of the document `["…"]` written as `literal` (the bytes between the quotes).
    private static func parsed(_ literal: [UInt8], replacingInvalidUTF8: Bool = false) throws(JSONSyntaxError) -> String? {
        let document = Data(Array(#"[""#.utf8) + literal + Array(#""]"#.utf8))
        guard case .array(let values) = try JSONParser.parse(document, replacingInvalidUTF8: replacingInvalidUTF8),
            case .string(let string) = values.first
        else { return nil }
        return string
    }

    @Test("plain, escaped and non-ASCII strings read as Foundation reads them")
    func reads() throws {
        let literals = [
            "", "home", "a longer string than fifteen bytes, without escapes", "Caf\u{e9} \u{1F600}",
            #"quote \" inside"#, #"back\\slash"#, #"\n\r\t\b\f\/"#, #"\u00e9\ud83d\ude00"#, #"tail escape\n"#,
            #"\"leading escape"#,
        ]
        for literal in literals {
            let expected = try JSONSerialization.jsonObject(with: Data("[\"\(literal)\"]".utf8)) as? [String]
            #expect(try Self.parsed(Array(literal.utf8)) == expected?.first, "\(literal)")
        }
    }

    @Test("a control character, invalid UTF-8 or a missing quote is a syntax error; invalid UTF-8 may be replaced")
    func refuses() throws {
        #expect(throws: JSONSyntaxError.self) { try Self.parsed(Array("tab\u{1}".utf8)) }
        #expect(throws: JSONSyntaxError.self) { try Self.parsed([0x61, 0xFF, 0x62]) }
        #expect(throws: JSONSyntaxError.self) { try Self.parsed([0x5C, 0x6E, 0xC3]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data(#"["unterminated"#.utf8)) }
        #expect(try Self.parsed([0x61, 0xFF, 0x62], replacingInvalidUTF8: true) == "a\u{FFFD}b")
        #expect(try Self.parsed([0x5C, 0x6E, 0xFF], replacingInvalidUTF8: true) == "\n\u{FFFD}")
    }

    @Test("appendString writes what parses back to the same string, escaping only what JSON requires")
    func writes() throws {
        let strings = [
            "", "home", "a longer string than fifteen bytes, without escapes", "Caf\u{e9} \u{1F600}", "quote \" inside",
            "back\\slash", "lines\nand\r\ttabs", "bell \u{7} and nul \u{0}", "del \u{7F} stays",
        ]
        for string in strings {
            var body: [UInt8] = []
            DirectJSON.appendString(string, to: &body)
            let back = try JSONSerialization.jsonObject(with: Data([UInt8(ascii: "[")] + body + [UInt8(ascii: "]")]))
            #expect((back as? [String])?.first == string, "\(string.debugDescription)")
        }
        var plain: [UInt8] = []
        DirectJSON.appendString("Caf\u{e9} \u{7F}", to: &plain)
        #expect(plain == Array("\"Caf\u{e9} \u{7F}\"".utf8))
        var escaped: [UInt8] = []
        DirectJSON.appendString("a\"b\\c\nd\u{1}", to: &escaped)
        #expect(String(decoding: escaped, as: UTF8.self) == #""a\"b\\c\nd\u0001""#)
    }
}

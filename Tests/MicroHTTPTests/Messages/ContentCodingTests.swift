import Foundation
import MicroHTTP
import Testing

@Suite("Content codings: Accept-Encoding negotiation and compression")
struct ContentCodingTests {
    private static let all: [ContentCoding] = [.identity, .gzip, .brotli]

    @Test(
        "RFC 9110 §12.5.3: q-values, x-gzip, *, identity;q=0, and the smaller coding on a tie",
        arguments: [
            (nil, ContentCoding?.some(.identity)),
            ("", .identity),
            ("gzip", .gzip),
            ("x-gzip", .gzip),
            ("GZIP", .gzip),
            ("br", .brotli),
            ("gzip, deflate, br", .brotli),
            ("gzip;q=1.0, br;q=0.9", .gzip),
            ("br;q=0, gzip", .gzip),
            ("br ; q=0.5 , gzip ; q=0.4", .brotli),
            ("*", .brotli),
            ("*;q=0.2, gzip;q=0.5", .gzip),
            ("deflate, zstd", .identity),
            ("gzip;q=0", .identity),
            ("gzip;q=abc", .identity),
            ("gzip;q=1.5", .identity),
            ("identity", .identity),
            ("identity;q=0", nil),
            ("*;q=0", nil),
            ("*;q=0, identity", .identity),
            ("br;q=0, gzip;q=0, identity;q=0", nil),
        ] as [(String?, ContentCoding?)])
    func negotiation(header: String?, expected: ContentCoding?) {
        #expect(ContentCoding.negotiate(header, offered: Self.all) == expected)
    }

    @Test("Only what is offered is chosen: a small body's answer has identity alone")
    func offeredOnly() {
        #expect(ContentCoding.negotiate("br, gzip", offered: [.identity]) == .identity)
        #expect(ContentCoding.negotiate("br;q=0.1, gzip", offered: [.identity, .brotli]) == .brotli)
        #expect(ContentCoding.negotiate("identity;q=0", offered: [.identity]) == nil)
    }

    @Test(
        "gzip output is one member the system's gzip decodes; brotli output is smaller than the input; each effort counts",
        arguments: Compression.Effort.allCases)
    func compression(effort: Compression.Effort) throws {
        let body = Data(String(repeating: "{\"id\":\"home\",\"title\":\"Home\"},", count: 100).utf8)
        let before = Compression.compressedBodies(effort)
        let gzip = try #require(Compression.compress(body, as: .gzip, effort: effort))
        #expect(gzip.prefix(2) == Data([0x1F, 0x8B]))
        let brotli = try #require(Compression.compress(body, as: .brotli, effort: effort))
        #expect(brotli.count < gzip.count && gzip.count < body.count)
        #expect(Compression.compress(body, as: .identity, effort: effort) == nil)
        #expect(Compression.compressedBodies(effort) >= before + 2)
    }
}

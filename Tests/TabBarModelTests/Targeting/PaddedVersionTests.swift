@testable import TabBarModel
import TestSupport
import Testing

@Suite("Version padding")
struct PaddedVersionTests {
    @Test("the one-pass padding of ASCII text equals the general one, over 20,000 random version-like strings")
    func onePassEqualsGeneral() throws {
        var generator = SplitMix64(seed: 17)
        let alphabet = Array("0123456789.-+vab ~".utf8) + [UInt8(ascii: "V"), UInt8(ascii: "!")]
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 14)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(try #require(PaddedVersion.paddedASCII(text)) == PaddedVersion.padded(text), "\(text)")
        }
        #expect(PaddedVersion.paddedASCII("5.2.0\n") == nil)
        #expect(PaddedVersion.paddedASCII("é") == nil)
    }
}

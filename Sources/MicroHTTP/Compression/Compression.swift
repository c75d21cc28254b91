import CCompression
import Foundation
import Synchronization

/// Gzip (zlib) and brotli (libbrotlienc) compression of whole bodies, for answers prepared once and sent many times:
/// both at their smallest output (gzip level 9, brotli quality 11), since the cost is paid once per answer.
public enum Compression {
    /// Bodies below this size are sent as they are: the coding's own framing eats most of the gain.
    public static let minimumSize = 512

    private static let calls = Atomic<Int>(0)

    /// How many bodies this process has compressed (each coding counts once): what a test reads to see that requests
    /// make none.
    public static var compressedBodies: Int { calls.load(ordering: .relaxed) }

    /// `body` in `coding`, nil for identity or when the library fails.
    public static func compress(_ body: Data, as coding: ContentCoding) -> Data? {
        switch coding {
        case .identity: return nil
        case .gzip: return gzip(body)
        case .brotli: return brotli(body)
        }
    }

    /// `body` as one gzip member at level 9.
    static func gzip(_ body: Data) -> Data? {
        calls.add(1, ordering: .relaxed)
        // zlib's bound for deflate plus the gzip header and trailer.
        var capacity = body.count + body.count / 1000 + 64
        var output = Data(count: capacity)
        let status = output.withUnsafeMutableBytes { out in
            body.withUnsafeBytes { input in
                CCompression_gzip(
                    input.bindMemory(to: UInt8.self).baseAddress, input.count,
                    out.bindMemory(to: UInt8.self).baseAddress, &capacity, 9)
            }
        }
        guard status == Z_OK else { return nil }
        output.count = capacity
        return output
    }

    /// `body` as a brotli stream at quality 11 with a 4 MiB window (RFC 7932).
    static func brotli(_ body: Data) -> Data? {
        calls.add(1, ordering: .relaxed)
        var capacity = BrotliEncoderMaxCompressedSize(body.count)
        if capacity == 0 { capacity = body.count + 1024 }
        var output = Data(count: capacity)
        let ok = output.withUnsafeMutableBytes { out in
            body.withUnsafeBytes { input in
                BrotliEncoderCompress(
                    BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, input.count,
                    input.bindMemory(to: UInt8.self).baseAddress, &capacity,
                    out.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        guard ok == BROTLI_TRUE else { return nil }
        output.count = capacity
        return output
    }
}

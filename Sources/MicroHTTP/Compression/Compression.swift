import CCompression
import Foundation
import Synchronization

/// Gzip (zlib) and brotli (libbrotlienc) compression of whole bodies, for answers prepared once and sent many times,
/// at one of two efforts (``Effort``).
public enum Compression {
    /// How hard to compress: the smallest output, or an output almost as small for a small part of the work.
    public enum Effort: String, Sendable, CaseIterable {
        /// Gzip level 6 and brotli quality 5: what a request's thread may afford. On a 2.4 KB tab bar brotli 5 took
        /// 52 µs for 552 bytes where quality 11 took 3.1 ms for 465.
        case fast
        /// Gzip level 9 and brotli quality 11: the smallest output, for answers made off the requests' threads.
        case best

        var gzipLevel: Int32 { self == .best ? 9 : 6 }
        var brotliQuality: Int32 { self == .best ? BROTLI_MAX_QUALITY : 5 }
    }

    /// Bodies below this size are sent as they are: the coding's own framing eats most of the gain.
    public static let minimumSize = 512

    private static let fastCalls = Atomic<Int>(0)
    private static let bestCalls = Atomic<Int>(0)

    /// How many bodies this process has compressed at `effort` (each coding counts once): what a test reads to see
    /// that requests make none, or none at the best effort.
    public static func compressedBodies(_ effort: Effort) -> Int {
        effort == .best ? bestCalls.load(ordering: .relaxed) : fastCalls.load(ordering: .relaxed)
    }

    /// `body` in `coding` at `effort`, nil for identity or when the library fails.
    public static func compress(_ body: Data, as coding: ContentCoding, effort: Effort) -> Data? {
        switch coding {
        case .identity: return nil
        case .gzip: return gzip(body, effort: effort)
        case .brotli: return brotli(body, effort: effort)
        }
    }

    private static func count(_ effort: Effort) {
        if effort == .best {
            bestCalls.add(1, ordering: .relaxed)
        } else {
            fastCalls.add(1, ordering: .relaxed)
        }
    }

    /// `body` as one gzip member.
    static func gzip(_ body: Data, effort: Effort) -> Data? {
        count(effort)
        // zlib's bound for deflate plus the gzip header and trailer.
        var capacity = body.count + body.count / 1000 + 64
        var output = Data(count: capacity)
        let status = output.withUnsafeMutableBytes { out in
            body.withUnsafeBytes { input in
                CCompression_gzip(
                    input.bindMemory(to: UInt8.self).baseAddress, input.count,
                    out.bindMemory(to: UInt8.self).baseAddress, &capacity, effort.gzipLevel)
            }
        }
        guard status == Z_OK else { return nil }
        output.count = capacity
        return output
    }

    /// `body` as a brotli stream with a 4 MiB window (RFC 7932).
    static func brotli(_ body: Data, effort: Effort) -> Data? {
        count(effort)
        var capacity = BrotliEncoderMaxCompressedSize(body.count)
        if capacity == 0 { capacity = body.count + 1024 }
        var output = Data(count: capacity)
        let ok = output.withUnsafeMutableBytes { out in
            body.withUnsafeBytes { input in
                BrotliEncoderCompress(
                    effort.brotliQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, input.count,
                    input.bindMemory(to: UInt8.self).baseAddress, &capacity,
                    out.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        guard ok == BROTLI_TRUE else { return nil }
        output.count = capacity
        return output
    }
}

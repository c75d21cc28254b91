import Foundation

/// Every valid record of a framed file (journal or snapshot) and every damaged range between them, found by walking
/// the whole file and resynchronizing after damage. A record whose checksums hold but whose payload `accept` rejects
/// counts as damaged too. Used by verify and repair, which need the whole picture; opening a store stops at the first
/// damage instead.
struct FramedSurvey {
    /// The valid, accepted records, in file order.
    var frames: [RecordFraming.Frame] = []
    /// The damaged ranges, in file order, each with the number of accepted records after it.
    var damage: [DamagedRange] = []

    /// Surveys `bytes`, which should start with `magic`. `accept` returns nil for a usable payload, or why it is not.
    init(_ bytes: UnsafeRawBufferPointer, magic: Data, accept: (RecordFraming.Frame) -> String?) {
        var ranges: [(range: Range<Int>, reason: String, framesBefore: Int, undecodable: Bool)] = []
        var start = magic.count
        if !bytes.starts(with: magic), bytes.count > 0 {
            start = RecordFraming.firstValidRecord(in: bytes, from: 1) ?? bytes.count
            let reason = magic.starts(with: bytes) ? "incomplete file header" : "bad file header"
            ranges.append((0..<start, reason, 0, false))
        }
        var frames: [RecordFraming.Frame] = []
        RecordFraming.survey(
            bytes, from: start,
            visit: { frame in
                if let reason = accept(frame) {
                    ranges.append((frame.offset..<frame.end, "undecodable payload: \(reason)", frames.count, true))
                } else {
                    frames.append(frame)
                }
            },
            damaged: { range, reason in ranges.append((range, reason, frames.count, false)) }
        )
        self.frames = frames
        damage = ranges.map {
            DamagedRange(
                offset: $0.range.lowerBound, length: $0.range.count, reason: $0.reason,
                validRecordsAfter: frames.count - $0.framesBefore, isUndecodable: $0.undecodable
            )
        }
    }

    /// The bytes of every accepted record, in order, written to `fd` in chunks of about a megabyte.
    func writeFrames(from bytes: UnsafeRawBufferPointer, to fd: Int32, path: String, io: FileIO) throws {
        var run: Range<Int>?
        for frame in frames {
            if let current = run, current.upperBound == frame.offset, current.count < 1 << 20 {
                run = current.lowerBound..<frame.end
                continue
            }
            if let current = run {
                try io.writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[current]), path: path)
            }
            run = frame.offset..<frame.end
        }
        if let current = run {
            try io.writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[current]), path: path)
        }
    }
}

import Foundation
import TestSupport
@testable import TabBarStore

/// A framed file of known records with damage applied, and what recovery must make of it: which original records
/// are still intact, where the damage starts, and whether a valid record follows it.
struct DamagedJournal {
    /// How the bytes were damaged.
    enum Kind: String, CaseIterable, Sendable {
        /// The file is cut at the offset and random garbage is appended there (a torn write followed by junk).
        case appended
        /// Bytes from the offset are overwritten with random garbage (changing every byte; may extend the file).
        case overwritten
        /// Bytes from the offset are overwritten with zeros (may extend the file).
        case zeroFilled
    }

    /// What recovery must do.
    enum Expectation: Equatable {
        /// The bytes are unchanged, or the damage only ended in bytes equal to the originals.
        case clean
        /// No intact record follows the damage: open keeps `kept` records and truncates at `cut`.
        case tornTail(kept: Int, cut: Int)
        /// Intact records follow the damage starting at `offset`: open refuses.
        case middle(offset: Int, following: Int)
    }

    let original: Data
    let offsets: [Int]
    let bytes: Data
    let kind: Kind
    let offset: Int

    /// The indexes of the original records whose bytes are unchanged at their offsets.
    var intact: [Int] {
        offsets.indices.filter { index in
            let range = offsets[index]..<end(of: index)
            return range.upperBound <= bytes.count && bytes[range] == original[range]
        }
    }

    /// Applies damage of `kind` at `offset` to `original` (whose records start at `offsets`).
    init(original: Data, offsets: [Int], kind: Kind, offset: Int, using random: inout SplitMix64) {
        self.original = Data(original)
        self.offsets = offsets
        self.kind = kind
        self.offset = offset
        var bytes = Data(original)
        switch kind {
        case .appended:
            bytes = original.prefix(offset)
            bytes.append(Self.garbage(count: Int.random(in: 1...96, using: &random), using: &random))
        case .overwritten, .zeroFilled:
            let count = Int.random(in: 1...24, using: &random)
            if bytes.count < offset + count { bytes.append(Data(count: offset + count - bytes.count)) }
            for index in offset..<(offset + count) {
                if kind == .zeroFilled {
                    bytes[index] = 0
                } else {
                    bytes[index] ^= UInt8.random(in: 1...255, using: &random)
                }
            }
        }
        self.bytes = Data(bytes)
    }

    /// What recovery must make of the damaged bytes, for a file with a `magicCount`-byte header.
    func expectation(magicCount: Int) -> Expectation {
        let common = min(bytes.count, original.count)
        let firstDifference = (0..<common).first { bytes[$0] != original[$0] }
            ?? (bytes.count == original.count ? nil : common)
        guard let firstDifference else { return .clean }
        let intact = intact
        let damagedIndex = offsets.indices.first { !intact.contains($0) }
        let damageStart = firstDifference < magicCount ? 0 : damagedIndex.map { offsets[$0] } ?? original.count
        let following = intact.filter { offsets[$0] > damageStart }.count
        if following > 0 { return .middle(offset: damageStart, following: following) }
        if damageStart >= bytes.count { return .clean }
        let kept = firstDifference < magicCount ? 0 : damagedIndex ?? offsets.count
        return .tornTail(kept: kept, cut: damageStart == 0 ? magicCount : damageStart)
    }

    private func end(of index: Int) -> Int {
        index + 1 < offsets.count ? offsets[index + 1] : original.count
    }

    private static func garbage(count: Int, using random: inout SplitMix64) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }
}

/// The result of `StoreRecovery.verify` or `StoreRecovery.repair` on a data directory.
public struct StoreCheckReport: Sendable {
    /// The data directory.
    public var directory: String
    /// Every store file examined: the snapshot, the journal, the audit log, then version files by client and number.
    public var files: [FileCheck]
    /// Side files of earlier recoveries or repairs found in the directory (not counted as damage).
    public var earlierSideFiles: [String]
    /// Whether a running store held the directory during verify (a record being appended then may show as a torn
    /// tail). Repair refuses instead.
    public var directoryInUse: Bool

    /// Whether no file has damage.
    public var isClean: Bool { files.allSatisfy(\.isClean) }
    /// The files with damage.
    public var damagedFiles: [FileCheck] { files.filter { !$0.isClean } }
}

/// What `StoreRecovery.verify` or `repair` found in one file of a data directory, and what repair did to it.
public struct FileCheck: Sendable, Equatable {
    /// Which kind of store file.
    public enum Kind: String, Sendable {
        /// `customizations.snapshot`.
        case snapshot
        /// `customizations.journal`.
        case journal
        /// `audit.log`.
        case audit
        /// One `clients/<client>/versions/NNNNNN.json`.
        case version
        /// `builds.json`, the build manifests.
        case builds
        /// `rollouts.json`, the staged rollouts' states.
        case rollouts
        /// `changes.json`, the change requests.
        case changes
    }

    /// The file's path.
    public var path: String
    /// Which kind of store file it is.
    public var kind: Kind
    /// Valid records: journal records, audit entries, snapshot entries (the header not counted), or 1 for an intact
    /// version file.
    public var validRecords: Int
    /// For the snapshot, the entry count its header declares; nil when the header is lost or for other kinds.
    public var declaredEntries: Int?
    /// Damaged ranges, in file order; empty when the file is intact.
    public var damage: [DamagedRange] = []
    /// Side files repair wrote the damaged bytes to (or moved the file to).
    public var sideFiles: [String] = []
    /// What repair did, one sentence; nil when it changed nothing.
    public var action: String?
    /// Whether opening the store gets past this file by itself: it is intact, or its damage is a torn tail that open
    /// moves to a side file. False means open refuses until `repair` runs.
    public var opensWithoutRepair = true

    /// Whether the file is intact.
    public var isClean: Bool { damage.isEmpty }
}

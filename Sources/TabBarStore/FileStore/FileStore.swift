import Foundation
import Glibc
import Logging
import Synchronization

/// The embedded store: files under one data directory (docs/design/stores.md, "The store: format and recovery").
///
/// ```
/// <data>/clients/<client>/versions/000001.json …   one immutable file per retained version (the newest
///                                                    `Options.keepVersions` of each client)
/// <data>/customizations.journal                      append-only log of customization writes and client deletions
/// <data>/customizations.snapshot                     compacted state, replaced atomically
/// <data>/audit.log                                   append-only log of audited config changes (`AuditLog`)
/// <data>/builds.json                                 the build manifests, rewritten atomically (`BuildTable`)
/// <data>/rollouts.json                               the staged rollouts' states, rewritten atomically
///                                                    (`RolloutTable`)
/// <data>/changes.json                                the change requests, rewritten atomically (`ChangeTable`)
/// ```
/// A client deletion is journaled with the client's last version number before its files go, so numbering continues
/// after it. An audited change's entry is appended and fsynced before the change is made (`FileStore+Audit`). Every
/// write returns only once it is durable. After any write or fsync failure the store refuses writes for good
/// (`unavailableReason`) while reads keep working from memory.
public final class FileStore: TabBarStore {
    let directory: String
    let clientsDirectory: String
    let io: FileIO
    let logger: Logger
    let log: CustomizationLog
    let catalog: Mutex<VersionCatalog>
    /// The audit entries of config changes, in `audit.log` and in memory.
    let audit: AuditLog
    /// The build manifests, in `builds.json` and in memory.
    let buildTable: Mutex<BuildTable>
    /// The staged rollouts' states, in `rollouts.json` and in memory.
    let rolloutTable: Mutex<RolloutTable>
    /// The change requests, in `changes.json` and in memory.
    let changeTable: Mutex<ChangeTable>
    /// How many versions of each client are kept.
    let keepVersions: Int
    /// Serializes publishes, client deletions and close.
    let configWrites = Mutex(())
    private let lockFile: Mutex<Int32>

    /// Opens (creating if needed) the store in `directory`. Recovers torn tails (damage with no valid record after
    /// it: in the journal, after the snapshot's declared entries, or in a client's newest version files) by moving the
    /// damaged bytes to a side file first and logging a warning with file, offset and byte count. Throws
    /// `StoreOpenError` naming the file, the byte offset, what follows and `tabconfig store repair` for damage with a
    /// valid record after it (or that loses snapshot entries), and when the directory is not writable or is held by
    /// another store, or `options.keepVersions` is below 1. Prunes versions beyond `options.keepVersions` that an
    /// interrupted prune (or a larger earlier limit) left. Cuts the last audit entry when its change is not in the
    /// store (`AuditLog.init`).
    public init(directory: URL, options: Options = Options(), logger: Logger) throws {
        guard options.keepVersions >= 1 else {
            throw StoreOpenError("keepVersions must be at least 1 (it is \(options.keepVersions))")
        }
        let path = directory.standardizedFileURL.path
        let io = FileIO(faults: options.faultInjector)
        self.directory = path
        clientsDirectory = (path as NSString).appendingPathComponent("clients")
        self.io = io
        self.logger = logger
        keepVersions = options.keepVersions
        let lockDescriptor = try Self.prepareDirectory(path, io: io)
        do {
            Self.removeLeftovers(in: path, io: io, logger: logger)
            do {
                try io.makeDirectory(clientsDirectory)
            } catch {
                throw StoreOpenError("cannot create \(clientsDirectory): \(error)")
            }
            let versions = try Self.loadVersions(clientsDirectory, keep: options.keepVersions, io: io, logger: logger)
            catalog = Mutex(versions)
            let builds = try Self.loadBuilds(path, io: io)
            buildTable = Mutex(builds)
            let rollouts = try Self.loadRollouts(path, io: io)
            rolloutTable = Mutex(rollouts)
            let changes = try Self.loadChanges(path, io: io)
            changeTable = Mutex(changes)
            let log: CustomizationLog
            do {
                log = try CustomizationLog(
                    directory: path, io: io, logger: logger, compactionThreshold: options.compactionThreshold,
                    groupCommit: options.groupCommit, instruments: options.instruments
                )
            } catch let error as StoreOpenError {
                throw error
            } catch {
                throw StoreOpenError("cannot open the customizations in \(path): \(error)")
            }
            do {
                audit = try AuditLog(directory: path, io: io, logger: logger) { entry in
                    Self.happened(
                        entry, versions: versions, log: log, builds: builds, rollouts: rollouts, changes: changes)
                }
            } catch {
                log.close()
                if let error = error as? StoreOpenError { throw error }
                throw StoreOpenError("cannot open the audit log in \(path): \(error)")
            }
            self.log = log
        } catch {
            Self.unlockDirectory(lockDescriptor)
            throw error
        }
        lockFile = Mutex(lockDescriptor)
        logger.info(
            "opened the store",
            metadata: [
                "directory": "\(path)", "clients": "\(clientIDs().count)", "customizations": "\(log.liveCount)",
            ]
        )
    }

    deinit {
        close()
    }

    public var unavailableReason: String? {
        log.unavailableReason
    }

    public var customizationCount: Int {
        log.liveCount
    }

    public var journalBytes: Int? {
        log.journalBytes
    }

    /// Number of journal fsyncs done for customization writes; with group commit, fewer than the writes.
    public var syncCount: Int {
        log.syncCount
    }

    public func customization(client: String, user: String) -> CustomizationEntry? {
        log.entry(CustomizationKey(client: client, user: user))
    }

    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?
    ) throws -> CustomizationEntry {
        try log.save(CustomizationKey(client: client, user: user), value, expectedRevision: expectedRevision)
    }

    /// Saves without holding the caller: `completion` runs on the store's flusher thread once the write is durable
    /// (or at once on the caller's thread for a refusal), so many writes can wait for one group commit.
    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    ) {
        log.save(
            CustomizationKey(client: client, user: user), value, expectedRevision: expectedRevision,
            completion: completion)
    }

    public func deleteCustomization(client: String, user: String) throws -> Bool {
        try log.delete(CustomizationKey(client: client, user: user))
    }

    /// Forces a compaction now (snapshot + new journal); used by tests.
    public func compact() throws {
        try log.compact()
    }

    public func close() {
        configWrites.withLock { _ in
            log.close()
            audit.close()
            lockFile.withLock { fd in
                if fd >= 0 { Self.unlockDirectory(fd) }
                fd = -1
            }
        }
    }

    /// The revision a key has reached, counting resets; 0 when never saved.
    func currentRevision(client: String, user: String) -> UInt64 {
        log.revision(CustomizationKey(client: client, user: user))
    }

    /// Creates `path` and its missing ancestors, each made durable in its parent.
    private static func makeDirectories(_ path: String, io: FileIO) throws {
        guard !io.exists(path) else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            try makeDirectories(parent, io: io)
        }
        do {
            try io.makeDirectory(path)
        } catch let error as SystemError where error.code == ENOENT && io.isDirectory(parent) {
            // The parent exists, yet the kernel says it does not: a file system that takes no new entries (/proc).
            throw StoreOpenError("\(parent) does not accept new directories (\(error))")
        }
    }

    /// Creates the data directory, checks that it can be written, and takes the lock that keeps a second process
    /// out. Returns the lock file's descriptor.
    private static func prepareDirectory(_ path: String, io: FileIO) throws -> Int32 {
        do {
            try makeDirectories(path, io: io)
        } catch {
            throw StoreOpenError("cannot create the data directory \(path): \(error)")
        }
        guard io.isDirectory(path) else {
            throw StoreOpenError("the data directory \(path) is not a directory")
        }
        guard access(path, W_OK) == 0 else {
            throw StoreOpenError("the data directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
        return try lockDirectory(path, io: io)
    }

    /// Removes temp files a crash left behind in the data directory (the store's files' and `SecretFile`'s; side
    /// files of damaged bytes stay).
    private static func removeLeftovers(in path: String, io: FileIO, logger: Logger) {
        let names = (try? io.contents(of: path)) ?? []
        for name in names where name.hasSuffix(".tmp") {
            let leftover = (path as NSString).appendingPathComponent(name)
            logger.notice("removing a leftover temp file", metadata: ["file": "\(leftover)"])
            unlink(leftover)
        }
    }
}

extension FileStore {
    /// Tuning for a `FileStore`.
    public struct Options: Sendable {
        /// Journal bytes that trigger a compaction.
        public var compactionThreshold: Int = 64 * 1024 * 1024
        /// How many versions of each client are kept (at least 1); older ones are pruned after each publish and at
        /// open. The live version is always kept.
        public var keepVersions: Int = 100
        /// Whether concurrent customization writes share one journal write and fsync (group commit). When false,
        /// every write gets its own fsync: the baseline the benchmarks compare group commit against.
        public var groupCommit = true
        /// Where commit durations and batch sizes are reported.
        public var instruments = StoreInstruments()
        /// Test hook that makes file-system calls fail on demand.
        var faultInjector: FaultInjector?

        /// The defaults.
        public init() {}
    }
}

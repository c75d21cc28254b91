#if PostgreSQL
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization
import TabBarModel

/// A ``TabBarStore`` in PostgreSQL (docs/design/stores.md, "PostgreSQL store"), for several replicas on one
/// database. A write is acknowledged once its transaction committed; each conditional write is one statement or one
/// transaction holding the row's lock, so it is atomic across replicas. Reads are served from memory
/// (``PostgresCache``): read at open, updated by this process's writes and by the ``ChangeNotice`` every write sends
/// to every replica (`LISTEN` / `NOTIFY`), and read again whenever the listening connection is re-established.
///
/// The database client is postgres-nio's `PostgresClient` (a pool of connections on SwiftNIO's event loops); its
/// tasks run on ``DatabaseExecutor``. The synchronous methods wait for them; `saveCustomization(…completion:)` does
/// not.
public final class PostgresStore: TabBarStore {
    /// Tuning.
    public struct Options: Sendable {
        /// Versions kept per client, the live one included.
        public var keepVersions = 100
        /// The most connections the pool opens.
        public var maximumConnections = 20
        /// How long a write or the opening waits for the database before it fails as unavailable.
        public var timeout: Duration = .seconds(10)
        /// Where the commit durations and batch sizes of tab-order saves are reported.
        public var instruments = StoreInstruments()

        /// The defaults.
        public init() {}
    }

    private let url: PostgresStoreURL
    private let options: Options
    let logger: Logger
    /// The pool.
    let client: PostgresClient
    /// This store's id in the notices it sends.
    let origin = UUID().uuidString
    /// The pool's own task, and the listener's.
    private let tasks = Mutex<[Task<Void, Never>]>([])
    let cache = Mutex(PostgresCache())
    let observer = Mutex<(@Sendable (StoreChange) -> Void)?>(nil)
    /// Where tab-order saves are batched.
    private let saves: SaveBatcher
    /// Why the database is taken to be unreachable: set when the listening connection fails, cleared once it listens
    /// again and has re-read everything. Writes meanwhile fail at once.
    let outage = Mutex<String?>(nil)
    private let closed = Atomic<Bool>(false)

    /// Connects to the database at `url`, applies the migrations it lacks and loads what reads are served from.
    /// Throws ``StoreError/unavailable`` when the database cannot be reached within `options.timeout`.
    public init(url: PostgresStoreURL, options: Options = Options(), logger: Logger) throws {
        self.url = url
        self.options = options
        self.logger = logger
        var configuration = url.configuration
        configuration.options.maximumConnections = options.maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        saves = SaveBatcher(
            database: client, origin: origin, timeout: options.timeout, logger: logger,
            instruments: options.instruments)
        tasks.withLock {
            $0.append(Task(executorPreference: DatabaseExecutor.shared) { await client.run() })
        }
        do {
            let timeout = options.timeout
            try DatabaseTask.wait {
                try await DatabaseTask.bounded(by: timeout, logger: logger) {
                    try await Self.migrate(client, logger: logger)
                }
            }
            let loaded = DispatchSemaphore(value: 0)
            tasks.withLock {
                $0.append(
                    Task(executorPreference: DatabaseExecutor.shared) { [self] in
                        await listenForChanges { loaded.signal() }
                    })
            }
            guard loaded.wait(timeout: .now() + timeout / .seconds(1)) == .success else { throw StoreError.unavailable }
        } catch {
            close()
            throw error
        }
        logger.info("PostgreSQL store: opened \(url)")
    }

    // MARK: - Reads, from memory

    public var unavailableReason: String? {
        closed.load(ordering: .acquiring) ? "the store is closed" : outage.withLock { $0 }
    }

    public func clientIDs() -> [String] {
        cache.withLock { $0.clients.filter { !$0.value.versions.isEmpty }.keys.sorted() }
    }

    public func liveVersion(client: String) -> ConfigVersion? {
        cache.withLock { $0.clients[client]?.live }
    }

    public func version(client: String, number: Int) -> ConfigVersion? {
        cache.withLock { $0.clients[client]?.versions[number] }
    }

    public func versionNumbers(client: String) -> [Int] {
        cache.withLock { ($0.clients[client]?.versions.keys).map { $0.sorted() } ?? [] }
    }

    public func versionHistory(client: String) -> [ConfigVersionInfo] {
        cache.withLock { cache in
            (cache.clients[client]?.versions.values).map { $0.sorted { $0.version > $1.version } }?
                .map(ConfigVersionInfo.init) ?? []
        }
    }

    public func customization(client: String, user: String) -> CustomizationEntry? {
        cache.withLock { $0.customization(CustomizationKey(client: client, user: user)) }
    }

    public var customizationCount: Int {
        cache.withLock { $0.customizationCount }
    }

    // MARK: - Writes, committed before they return

    public func publish(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?, audit: AuditRecord?
    ) throws -> ConfigVersion {
        guard Identifiers.isValidClient(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        let keep = options.keepVersions
        let (version, prunedThrough) = try write { database, logger in
            try await Self.publish(
                database, client: client, document: document, note: note, rollbackOf: rollbackOf,
                expectedVersion: expectedVersion, audit: audit, keep: keep, origin: self.origin,
                cached: { self.version(client: client, number: $0) }, logger: logger)
        }
        cache.withLock { $0.addVersion(version, prunedThrough: prunedThrough) }
        return version
    }

    public func seed(client: String, document: Data, note: String?, audit: AuditRecord?) throws -> ConfigVersion? {
        guard Identifiers.isValidClient(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        let keep = options.keepVersions
        let seeded = try write { database, logger in
            try await Self.seed(
                database, client: client, document: document, note: note, audit: audit, keep: keep,
                origin: self.origin, cached: { self.version(client: client, number: $0) }, logger: logger)
        }
        guard let (version, prunedThrough) = seeded else { return nil }
        cache.withLock { $0.addVersion(version, prunedThrough: prunedThrough) }
        return version
    }

    public func deleteClient(_ client: String, audit: AuditRecord?) throws -> Bool {
        let (existed, lastVersion, removed) = try write { database, logger in
            try await Self.deleteClient(
                database, client: client, audit: audit, origin: self.origin,
                cached: { self.version(client: client, number: $0) }, logger: logger)
        }
        cache.withLock { cache in
            if let lastVersion { cache.deleteClient(client, through: lastVersion) }
            for (user, revision) in removed {
                cache.setCustomization(
                    CustomizationKey(client: client, user: user), CustomizationEntry(revision: revision, value: nil))
            }
        }
        return existed
    }

    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?
    ) throws -> CustomizationEntry {
        try DatabaseTask.wait {
            try await withCheckedThrowingContinuation { continuation in
                self.saveCustomization(client: client, user: user, value, expectedRevision: expectedRevision) {
                    continuation.resume(with: $0)
                }
            }
        }
    }

    public func saveCustomization(
        client: String, user: String, _ value: StoredCustomization, expectedRevision: UInt64?,
        completion: @escaping @Sendable (Result<CustomizationEntry, any Error>) -> Void
    ) {
        let json: String
        do {
            json = try Self.json(value)
            try checkOpen()
        } catch {
            completion(.failure(error))
            return
        }
        // Straight to the batcher, no task of its own: the batch's task calls back once it committed.
        let key = CustomizationKey(client: client, user: user)
        saves.save(key, value: value, json: json, expectedRevision: expectedRevision) { [self] result in
            if case .success(let entry) = result { cache.withLock { $0.setCustomization(key, entry) } }
            completion(result)
        }
    }

    public func deleteCustomization(client: String, user: String) throws -> Bool {
        let revision = try write { database, logger in
            try await Self.reset(database, client: client, user: user, origin: self.origin, logger: logger)
        }
        guard let revision else { return false }
        cache.withLock {
            $0.setCustomization(CustomizationKey(client: client, user: user), CustomizationEntry(revision: revision, value: nil))
        }
        return true
    }

    /// PostgreSQL keeps no journal of the store's own.
    public var journalBytes: Int? { nil }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        tasks.withLock { $0.forEach { $0.cancel() } }
    }

    public func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void) {
        self.observer.withLock { $0 = observer }
    }

    // MARK: - Running statements

    /// Throws ``StoreError/unavailable`` when the store is closed or the database is known to be unreachable.
    private func checkOpen() throws {
        if unavailableReason != nil { throw StoreError.unavailable }
    }

    /// Runs a write, or a read only the database can answer (the audit log), on the database and waits for it.
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> Value
    ) throws -> Value {
        try checkOpen()
        return try DatabaseTask.wait(operation(body))
    }

    /// `body` on the pool, bounded by the timeout; a database that cannot be reached or fails is
    /// ``StoreError/unavailable``, a store error thrown by `body` is itself.
    func operation<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> Value
    ) -> @Sendable () async throws -> Value {
        let database = self.client
        let logger = self.logger
        let timeout = options.timeout
        return {
            do {
                return try await DatabaseTask.bounded(by: timeout, logger: logger) { try await body(database, logger) }
            } catch {
                throw Self.storeError(error)
            }
        }
    }

    /// What an error of a database task is to the store's callers.
    private static func storeError(_ error: any Error) -> any Error {
        if let error = error as? StoreError { return error }
        return StoreError.unavailable
    }

    /// A customization as the JSON the store keeps.
    static func json(_ value: StoredCustomization) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        value.appendJSON(to: &bytes)
        guard bytes.count <= RecordFraming.maxPayload else { throw StoreError.recordTooLarge }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension PostgresStoreURL {
    /// The client configuration of the URL.
    var configuration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch sslMode {
            case "disable": .disable
            case "require": .require(.makeClientConfiguration())
            default: .prefer(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
    }
}
#endif

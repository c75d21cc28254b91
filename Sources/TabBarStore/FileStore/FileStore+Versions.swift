import Foundation
import Glibc
import Logging
import TabBarModel

extension FileStore {
    public func clientIDs() -> [String] {
        catalog.withLock { $0.clients.keys.sorted() }
    }

    public func liveVersion(client: String) -> ConfigVersion? {
        catalog.withLock { $0.clients[client]?.live }
    }

    public func versionNumbers(client: String) -> [Int] {
        catalog.withLock { $0.clients[client]?.versions.map(\.version) ?? [] }
    }

    public func version(client: String, number: Int) -> ConfigVersion? {
        let history = catalog.withLock { $0.clients[client] }
        guard let history, history.versions.contains(where: { $0.version == number }) else { return nil }
        if history.live.version == number { return history.live }
        let path = versionPath(client: client, number: number)
        do {
            return try VersionFile.decode(try io.read(path), client: client)
        } catch let error as SystemError where error.code == ENOENT {
            return nil
        } catch {
            logger.error("cannot read a version file", metadata: ["file": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    public func publish(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?,
        audit record: AuditRecord?
    ) throws -> ConfigVersion {
        guard Identifiers.isValidClient(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        return try configWrites.withLock { _ in
            try publishHoldingWrites(
                client: client, document: document, note: note, rollbackOf: rollbackOf,
                expectedVersion: expectedVersion, audit: record)
        }
    }

    public func seed(client: String, document: Data, note: String?, audit record: AuditRecord?) throws -> ConfigVersion? {
        guard Identifiers.isValidClient(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        return try configWrites.withLock { _ in
            guard hasNeverHeldAClient else { return nil }
            return try publishHoldingWrites(
                client: client, document: document, note: note, rollbackOf: nil, expectedVersion: 0, audit: record)
        }
    }

    /// No client has a version or a version moved aside, none was deleted, and the audit log is empty.
    private var hasNeverHeldAClient: Bool {
        catalog.withLock { $0.clients.isEmpty && !$0.hasSetAsideNumbers } && !log.hasDeletedClients
            && audit.nextSequence == 1
    }

    /// `publish`'s work, with `configWrites` held by the caller.
    private func publishHoldingWrites(
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?,
        audit record: AuditRecord?
    ) throws -> ConfigVersion {
        if log.unavailableReason != nil { throw StoreError.unavailable }
        let (previous, highest) = catalog.withLock {
            ($0.clients[client]?.live, $0.highestNumber(client: client) ?? 0)
        }
        if let expectedVersion, expectedVersion != previous?.version ?? 0 { throw StoreError.revisionMismatch }
        let number = max(highest, log.lastDeletedVersion(client: client) ?? 0) + 1
        let version = ConfigVersion(
            client: client, version: number, publishedAt: VersionFile.storedDate(Date()), note: note,
            rollbackOf: rollbackOf, document: document
        )
        let data = try VersionFile.encode(version)
        guard (try? VersionFile.decode(data, client: client))?.document == document else {
            throw StoreError.invalidDocument
        }
        let entry = record.map {
            AuditEntry(
                $0, sequence: audit.nextSequence, time: version.publishedAt, client: client, version: number,
                previous: previous, rollbackOf: rollbackOf, note: note)
        }
        let clientDirectory = (clientsDirectory as NSString).appendingPathComponent(client)
        try audited(entry) {
            do {
                try io.makeDirectory(clientDirectory)
                try io.makeDirectory((clientDirectory as NSString).appendingPathComponent("versions"))
                try io.writeAtomically(versionPath(client: client, number: number), data: data)
            } catch {
                log.fail("publishing version \(number) of \(client) failed: \(error)")
                throw StoreError.unavailable
            }
            catalog.withLock { $0.add(version) }
        }
        pruneVersions(client: client)
        return version
    }

    public func deleteClient(_ client: String, audit record: AuditRecord?) throws -> Bool {
        guard Identifiers.isValidClient(client) else { return false }
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let (live, highest) = catalog.withLock {
                ($0.clients[client]?.live, $0.highestNumber(client: client))
            }
            let clientDirectory = (clientsDirectory as NSString).appendingPathComponent(client)
            guard live != nil || log.hasCustomizations(client: client) || io.exists(clientDirectory) else {
                return false
            }
            var entry: AuditEntry?
            if let record, let live {
                entry = AuditEntry(
                    record, sequence: audit.nextSequence, time: VersionFile.storedDate(Date()), client: client,
                    version: highest ?? live.version, previous: live, rollbackOf: nil, note: nil)
            }
            try audited(entry) {
                try log.deleteClient(client, lastVersion: highest)
                catalog.withLock { $0.remove(client: client) }
                try removeVersions(of: client, in: clientDirectory)
            }
            return live != nil
        }
    }

    /// Removes a deleted client's directory: renamed away durably first (a failure stops the store), then removed
    /// (one left behind is removed at the next open).
    private func removeVersions(of client: String, in clientDirectory: String) throws {
        guard io.exists(clientDirectory) else { return }
        let doomed = (clientsDirectory as NSString).appendingPathComponent(
            ".deleted-\(client)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        )
        do {
            try io.rename(clientDirectory, doomed)
            try io.syncDirectory(clientsDirectory)
        } catch {
            log.fail("deleting the versions of \(client) failed: \(error)")
            throw StoreError.unavailable
        }
        do {
            try io.removeTree(doomed)
        } catch {
            logger.warning(
                "cannot remove a deleted client's directory; the next open removes it",
                metadata: ["directory": "\(doomed)", "error": "\(error)"]
            )
        }
    }

    func versionPath(client: String, number: Int) -> String {
        [clientsDirectory, client, "versions", VersionFile.fileName(number)].joined(separator: "/")
    }

    /// Reads the newest `keep` version files of every client, removing leftovers of interrupted writes and deletions
    /// and pruning (durably) older version files that an interrupted prune left behind.
    ///
    /// A version file that cannot be parsed (or whose number disagrees with its name) is judged by what follows it in
    /// the client's history. When no valid later version follows, it is moved aside (`NNNNNN.json.damaged-…`) with a
    /// warning and the previous version serves; its number stays used, so the next publish continues past it. When a
    /// valid later version follows, open refuses with a `StoreOpenError` naming the file, how many valid versions
    /// follow and the repair command. Side files of earlier recoveries are not versions; they only keep their numbers
    /// used.
    static func loadVersions(
        _ clientsDirectory: String, keep: Int, io: FileIO, logger: Logger
    ) throws -> VersionCatalog {
        var catalog = VersionCatalog()
        let names: [String]
        do {
            names = try io.contents(of: clientsDirectory)
        } catch {
            throw StoreOpenError("cannot read \(clientsDirectory): \(error)")
        }
        let advice = StoreRecovery.repairAdvice(dataDirectory: (clientsDirectory as NSString).deletingLastPathComponent)
        for name in names {
            let path = (clientsDirectory as NSString).appendingPathComponent(name)
            if name.hasPrefix(".") || name.hasSuffix(".tmp") {
                logger.notice("removing a leftover of an interrupted write or deletion", metadata: ["path": "\(path)"])
                try? io.removeTree(path)
                continue
            }
            guard io.isDirectory(path), Identifiers.isValidClient(name) else {
                logger.warning("ignoring an unexpected entry in the clients directory", metadata: ["path": "\(path)"])
                continue
            }
            let versionsDirectory = (path as NSString).appendingPathComponent("versions")
            guard io.isDirectory(versionsDirectory) else { continue }
            let listing: VersionListing
            do {
                listing = try VersionListing(versionsDirectory, io: io, logger: logger)
            } catch {
                throw StoreOpenError("cannot read \(versionsDirectory): \(error)")
            }
            if let setAside = listing.setAsideNumbers.max() {
                catalog.setAside(client: name, number: setAside)
            }
            let found = listing.files
            let doomed = found.prefix(max(0, found.count - keep))
            let read = found.dropFirst(doomed.count).map { file in
                (file: file, version: Result { try readVersionFile(file.path, number: file.number, client: name, io: io) })
            }
            let lastValid = read.lastIndex { (try? $0.version.get()) != nil }
            for (index, entry) in read.enumerated() {
                switch entry.version {
                case .success(let version):
                    catalog.add(version)
                case .failure(let error as VersionFileError):
                    if let lastValid, index < lastValid {
                        let following = read[(index + 1)...].filter { (try? $0.version.get()) != nil }.count
                        throw StoreOpenError(
                            "\(entry.file.path): cannot parse the version file (\(error.message)); \(following) valid "
                                + "later version\(following == 1 ? "" : "s") of \(name) follow it, so nothing was "
                                + "moved. \(advice)"
                        )
                    }
                    let side: String
                    do {
                        side = try SideFile.moveAside(entry.file.path, io: io)
                    } catch {
                        throw StoreOpenError("cannot move the damaged \(entry.file.path) aside: \(error)")
                    }
                    catalog.setAside(client: name, number: entry.file.number)
                    let message =
                        "moved the damaged newest version file \(entry.file.path) aside to \(side) (\(error.message)); "
                        + "the previous version serves and version \(entry.file.number) will not be reused"
                    logger.warning(
                        "\(message)",
                        metadata: ["file": "\(entry.file.path)", "sideFile": "\(side)", "client": "\(name)"]
                    )
                case .failure(let error):
                    throw StoreOpenError("\(entry.file.path): cannot read the version file (\(error))")
                }
            }
            if !doomed.isEmpty {
                logger.notice(
                    "pruning old versions left by an interrupted prune",
                    metadata: ["client": "\(name)", "versions": "\(doomed.map(\.number))", "keep": "\(keep)"]
                )
                do {
                    try removeVersionFiles(doomed.map(\.path), in: versionsDirectory, io: io)
                } catch {
                    throw StoreOpenError("cannot prune old versions in \(versionsDirectory): \(error)")
                }
            }
        }
        return catalog
    }

    /// Reads and parses one version file; a `VersionFileError` says what is wrong with its contents, any other error
    /// that it could not be read.
    static func readVersionFile(_ path: String, number: Int, client: String, io: FileIO) throws -> ConfigVersion {
        let version = try VersionFile.decode(try io.read(path), client: client)
        guard version.version == number else {
            throw VersionFileError(
                message: "the version file says version \(version.version), its name says \(number)"
            )
        }
        return version
    }
}

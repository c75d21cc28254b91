import Foundation
import Glibc
import Logging

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
        client: String, document: Data, note: String?, rollbackOf: Int?, expectedVersion: Int?
    ) throws -> ConfigVersion {
        guard Self.isValidClientID(client) else { throw StoreError.invalidClientID }
        guard VersionFile.isJSON(document) else { throw StoreError.invalidDocument }
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let live = catalog.withLock { $0.clients[client]?.live.version } ?? 0
            if let expectedVersion, expectedVersion != live { throw StoreError.revisionMismatch }
            let number = max(live, log.lastDeletedVersion(client: client) ?? 0) + 1
            let version = ConfigVersion(
                client: client, version: number, publishedAt: VersionFile.storedDate(Date()), note: note,
                rollbackOf: rollbackOf, document: document
            )
            let data = try VersionFile.encode(version)
            guard (try? VersionFile.decode(data, client: client))?.document == document else {
                throw StoreError.invalidDocument
            }
            let clientDirectory = (clientsDirectory as NSString).appendingPathComponent(client)
            do {
                try io.makeDirectory(clientDirectory)
                try io.makeDirectory((clientDirectory as NSString).appendingPathComponent("versions"))
                try io.writeAtomically(versionPath(client: client, number: number), data: data)
            } catch {
                log.fail("publishing version \(number) of \(client) failed: \(error)")
                throw StoreError.unavailable
            }
            catalog.withLock { $0.add(version) }
            pruneVersions(client: client)
            return version
        }
    }

    public func deleteClient(_ client: String) throws -> Bool {
        guard Self.isValidClientID(client) else { return false }
        return try configWrites.withLock { _ in
            if log.unavailableReason != nil { throw StoreError.unavailable }
            let lastVersion = catalog.withLock { $0.clients[client]?.live.version }
            let clientDirectory = (clientsDirectory as NSString).appendingPathComponent(client)
            guard lastVersion != nil || log.hasCustomizations(client: client) || io.exists(clientDirectory) else {
                return false
            }
            try log.deleteClient(client, lastVersion: lastVersion)
            catalog.withLock { $0.remove(client: client) }
            if io.exists(clientDirectory) {
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
            return lastVersion != nil
        }
    }

    /// Whether `client` matches `^[a-z0-9][a-z0-9-]{0,62}$`, so it is safe as a directory name.
    static func isValidClientID(_ client: String) -> Bool {
        let bytes = Array(client.utf8)
        guard (1...63).contains(bytes.count) else { return false }
        func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return isLowerAlphanumeric(bytes[0])
            && bytes.dropFirst().allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    func versionPath(client: String, number: Int) -> String {
        [clientsDirectory, client, "versions", VersionFile.fileName(number)].joined(separator: "/")
    }

    /// Reads the newest `keep` version files of every client, removing leftovers of interrupted writes and deletions
    /// and pruning (durably) older version files that an interrupted prune left behind.
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
        for name in names {
            let path = (clientsDirectory as NSString).appendingPathComponent(name)
            if name.hasPrefix(".") || name.hasSuffix(".tmp") {
                logger.notice("removing a leftover of an interrupted write or deletion", metadata: ["path": "\(path)"])
                try? io.removeTree(path)
                continue
            }
            guard io.isDirectory(path), isValidClientID(name) else {
                logger.warning("ignoring an unexpected entry in the clients directory", metadata: ["path": "\(path)"])
                continue
            }
            let versionsDirectory = (path as NSString).appendingPathComponent("versions")
            guard io.isDirectory(versionsDirectory) else { continue }
            let files: [String]
            do {
                files = try io.contents(of: versionsDirectory)
            } catch {
                throw StoreOpenError("cannot read \(versionsDirectory): \(error)")
            }
            var found: [(number: Int, path: String)] = []
            for file in files {
                let filePath = (versionsDirectory as NSString).appendingPathComponent(file)
                if file.hasSuffix(".tmp") {
                    logger.notice("removing a leftover temp file", metadata: ["file": "\(filePath)"])
                    unlink(filePath)
                } else if let number = VersionFile.number(fromFileName: file) {
                    found.append((number, filePath))
                } else {
                    logger.warning("ignoring an unexpected file", metadata: ["file": "\(filePath)"])
                }
            }
            found.sort { $0.number < $1.number }
            let doomed = found.prefix(max(0, found.count - keep))
            for (number, filePath) in found.dropFirst(doomed.count) {
                let version: ConfigVersion
                do {
                    version = try VersionFile.decode(try io.read(filePath), client: name)
                } catch let error as VersionFileError {
                    throw StoreOpenError("\(filePath): cannot parse the version file (\(error.message))")
                } catch {
                    throw StoreOpenError("\(filePath): cannot read the version file (\(error))")
                }
                guard version.version == number else {
                    throw StoreOpenError(
                        "\(filePath): the version file says version \(version.version), its name says \(number)"
                    )
                }
                catalog.add(version)
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
}

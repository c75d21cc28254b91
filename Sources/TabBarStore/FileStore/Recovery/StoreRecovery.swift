import Foundation
import Glibc
import Logging
import TabBarModel

/// Offline checks of a data directory: `verify` reads every store file and reports its valid records and damage;
/// `repair` keeps every valid record, moves damaged bytes to side files and rewrites what needs it.
///
/// What counts as damage and what repair does, per file:
/// - journal: every byte range that is not a valid record (length checksum, length bound, fits in the file, payload
///   checksum) or whose payload is not a journal record. Repair writes each range to a side file, then replaces the
///   journal with its header and every valid record, in order, on both sides of the damage.
/// - audit log: the same as the journal, its records audit entries. (A last entry whose change is not in the store is
///   no damage here: opening the store cuts it.)
/// - snapshot: the same, plus a missing or unreadable header record and entries the header declares but the file
///   lacks. Repair writes the damaged ranges to side files, then replaces the snapshot with the intact entries and a
///   header counting them (covering journal sequence 0 when the header was lost, so the whole journal is replayed over
///   it); entries that were lost are reported, not invented.
/// - version files: a file that cannot be parsed or whose number disagrees with its name. Repair moves it aside; its
///   number stays used.
public enum StoreRecovery {
    /// The sentence store errors end with when repair can help.
    public static func repairAdvice(dataDirectory: String) -> String {
        "Run `tabconfig store repair --data-dir \(dataDirectory)` to keep every valid record and move the damaged "
            + "bytes to a side file."
    }

    /// Reads every store file in `directory` and reports what it holds; changes nothing. Throws when the directory
    /// or a file cannot be read.
    public static func verify(directory: URL) throws -> StoreCheckReport {
        let path = directory.standardizedFileURL.path
        let io = FileIO()
        try requireDirectory(path, io: io)
        return try examine(path, io: io, inUse: FileStore.isLocked(path, io: io)).report
    }

    /// Repairs `directory`: for every damaged file, writes the damaged bytes to side files (durably) first, then
    /// rewrites the file with every valid record (atomically), or moves a damaged version file aside. Holds the
    /// directory's lock meanwhile, so it throws a `StoreOpenError` with `directoryInUse` set while a server runs.
    /// The report says what it found and did; a clean directory is left untouched.
    public static func repair(directory: URL, logger: Logger) throws -> StoreCheckReport {
        let path = directory.standardizedFileURL.path
        let io = FileIO()
        try requireDirectory(path, io: io)
        let lock = try FileStore.lockDirectory(path, io: io)
        defer { FileStore.unlockDirectory(lock) }
        let examination = try examine(path, io: io, inUse: false)
        var report = examination.report
        for index in report.files.indices where !report.files[index].isClean {
            let file = report.files[index]
            switch file.kind {
            case .journal, .audit:
                report.files[index] = try repairAppendOnly(file, io: io)
            case .snapshot:
                report.files[index] = try repairSnapshot(file, lastSequence: examination.snapshotSequence, io: io)
            case .version:
                let side = try SideFile.moveAside(file.path, io: io)
                report.files[index].sideFiles = [side]
                report.files[index].action = "moved the damaged version file to \(side)"
            case .builds:
                let side = try SideFile.moveAside(file.path, io: io)
                report.files[index].sideFiles = [side]
                report.files[index].action =
                    "moved the damaged build manifests to \(side); the store opens without them: register them again"
            case .rollouts:
                let side = try SideFile.moveAside(file.path, io: io)
                report.files[index].sideFiles = [side]
                report.files[index].action =
                    "moved the damaged rollout states to \(side); every staged rollout starts again at its first "
                    + "stage: pause or roll back those that had failed"
            case .changes:
                let side = try SideFile.moveAside(file.path, io: io)
                report.files[index].sideFiles = [side]
                report.files[index].action =
                    "moved the damaged change requests to \(side); the store opens without them: open them again"
            }
            logger.notice(
                "repaired \(file.path)",
                metadata: ["file": "\(file.path)", "action": "\(report.files[index].action ?? "")"]
            )
        }
        return report
    }

    private static func requireDirectory(_ path: String, io: FileIO) throws {
        guard io.isDirectory(path) else {
            throw StoreOpenError("\(path) is not a data directory (it does not exist or is not a directory)")
        }
    }

    private static func examine(
        _ path: String, io: FileIO, inUse: Bool
    ) throws -> (report: StoreCheckReport, snapshotSequence: UInt64) {
        var files: [FileCheck] = []
        var sideFiles: [String] = []
        var snapshotSequence: UInt64 = 0
        let snapshotPath = (path as NSString).appendingPathComponent("customizations.snapshot")
        if io.exists(snapshotPath) {
            let checked = try checkSnapshot(snapshotPath, io: io)
            files.append(checked.check)
            snapshotSequence = checked.lastSequence
        }
        let journalPath = (path as NSString).appendingPathComponent("customizations.journal")
        if io.exists(journalPath) {
            files.append(try checkAppendOnly(journalPath, kind: .journal, io: io))
        }
        let auditPath = (path as NSString).appendingPathComponent(AuditLog.fileName)
        if io.exists(auditPath) {
            files.append(try checkAppendOnly(auditPath, kind: .audit, io: io))
        }
        let buildsPath = (path as NSString).appendingPathComponent(BuildTable.fileName)
        if io.exists(buildsPath) {
            files.append(checkWhole(buildsPath, kind: .builds, io: io) { try BuildTable.decode($0).builds.count })
        }
        let rolloutsPath = (path as NSString).appendingPathComponent(RolloutTable.fileName)
        if io.exists(rolloutsPath) {
            files.append(checkWhole(rolloutsPath, kind: .rollouts, io: io) { try RolloutTable.decode($0).states.count })
        }
        let changesPath = (path as NSString).appendingPathComponent(ChangeTable.fileName)
        if io.exists(changesPath) {
            files.append(checkWhole(changesPath, kind: .changes, io: io) { try ChangeTable.decode($0).changes.count })
        }
        for name in try io.contents(of: path) where SideFile.isSideFile(name) {
            sideFiles.append((path as NSString).appendingPathComponent(name))
        }
        let clientsDirectory = (path as NSString).appendingPathComponent("clients")
        if io.isDirectory(clientsDirectory) {
            for client in try io.contents(of: clientsDirectory) where Identifiers.isValidClient(client) {
                let versionsDirectory = [clientsDirectory, client, "versions"].joined(separator: "/")
                guard io.isDirectory(versionsDirectory) else { continue }
                let listing = try VersionListing(versionsDirectory, io: io, logger: nil)
                sideFiles += listing.sideFiles
                files += try checkVersions(listing, client: client, io: io)
            }
        }
        let report = StoreCheckReport(
            directory: path, files: files, earlierSideFiles: sideFiles, directoryInUse: inUse
        )
        return (report, snapshotSequence)
    }

    private static func mapped(_ path: String, io: FileIO) throws -> MappedFile {
        let fd = try io.open(path, O_RDONLY)
        defer { Glibc.close(fd) }
        return try MappedFile(fd: fd, path: path)
    }

    /// Checks the journal or the audit log.
    private static func checkAppendOnly(_ path: String, kind: FileCheck.Kind, io: FileIO) throws -> FileCheck {
        let file = try mapped(path, io: io)
        let survey = appendOnlySurvey(file.bytes, kind: kind)
        var check = FileCheck(path: path, kind: kind, validRecords: survey.frames.count, damage: survey.damage)
        check.opensWithoutRepair =
            survey.damage.isEmpty
            || (survey.damage.count == 1 && survey.damage[0].isTornTail && !survey.damage[0].isUndecodable)
        return check
    }

    /// The records of the journal or the audit log (`kind`); one whose payload is not a record of that file counts as
    /// damage.
    private static func appendOnlySurvey(_ bytes: UnsafeRawBufferPointer, kind: FileCheck.Kind) -> FramedSurvey {
        let decoder = kind == .audit ? AuditLog.decoder() : JSONDecoder()
        return FramedSurvey(bytes, magic: magic(of: kind)) { frame in
            let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
            do {
                if kind == .audit {
                    _ = try decoder.decode(AuditEntry.self, from: Data(payload))
                } else {
                    _ = try JournalRecord.decode(json: payload, decoder: decoder)
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    private static func checkSnapshot(_ path: String, io: FileIO) throws -> (check: FileCheck, lastSequence: UInt64) {
        let file = try mapped(path, io: io)
        let survey = snapshotSurvey(file.bytes)
        let entries = survey.survey.frames.count - (survey.header == nil ? 0 : 1)
        var damage = survey.survey.damage
        if survey.header == nil, !damage.contains(where: { $0.offset <= SnapshotFile.magic.count }) {
            damage.insert(
                DamagedRange(
                    offset: SnapshotFile.magic.count, length: 0, reason: "missing header record",
                    validRecordsAfter: entries
                ),
                at: 0
            )
        }
        if let declared = survey.header?.entries, declared != entries, damage.isEmpty {
            damage.append(
                DamagedRange(
                    offset: file.bytes.count, length: 0, reason: "expected \(declared) entries, found \(entries)",
                    validRecordsAfter: 0
                )
            )
        }
        var check = FileCheck(
            path: path, kind: .snapshot, validRecords: entries, declaredEntries: survey.header?.entries, damage: damage
        )
        check.opensWithoutRepair =
            damage.isEmpty
            || (damage.count == 1 && damage[0].isTornTail && !damage[0].isUndecodable
                && survey.header?.entries == entries)
        return (check, survey.header?.lastSeq ?? 0)
    }

    private static func snapshotSurvey(
        _ bytes: UnsafeRawBufferPointer
    ) -> (survey: FramedSurvey, header: SnapshotFile.Header?) {
        let decoder = JSONDecoder()
        var header: SnapshotFile.Header?
        let survey = FramedSurvey(bytes, magic: SnapshotFile.magic) { frame in
            let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
            if frame.offset == SnapshotFile.magic.count {
                header = SnapshotFile.decodeHeader(Data(payload), decoder: decoder)
                if header != nil { return nil }
            }
            do {
                _ = try JournalRecord.decode(json: payload, decoder: decoder)
                return nil
            } catch {
                return "\(error)"
            }
        }
        return (survey, header)
    }

    private static func checkVersions(_ listing: VersionListing, client: String, io: FileIO) throws -> [FileCheck] {
        var checks: [FileCheck] = []
        for file in listing.files {
            do {
                _ = try FileStore.readVersionFile(file.path, number: file.number, client: client, io: io)
                checks.append(FileCheck(path: file.path, kind: .version, validRecords: 1))
            } catch let error as VersionFileError {
                let size = (try? io.read(file.path).count) ?? 0
                let damage = DamagedRange(offset: 0, length: size, reason: error.message, validRecordsAfter: 0)
                checks.append(FileCheck(path: file.path, kind: .version, validRecords: 0, damage: [damage]))
            }
        }
        var validAfter = 0
        for index in checks.indices.reversed() {
            if checks[index].isClean {
                validAfter += 1
            } else {
                checks[index].damage[0].validRecordsAfter = validAfter
                checks[index].opensWithoutRepair = validAfter == 0
            }
        }
        return checks
    }

    /// Checks `builds.json` or `rollouts.json` (`count` reads its entries): written whole, it is intact or damaged as
    /// a whole, and open refuses a damaged one.
    private static func checkWhole(
        _ path: String, kind: FileCheck.Kind, io: FileIO, count: (Data) throws -> Int
    ) -> FileCheck {
        do {
            return FileCheck(path: path, kind: kind, validRecords: try count(try io.read(path)))
        } catch {
            let size = (try? io.read(path).count) ?? 0
            let damage = DamagedRange(offset: 0, length: size, reason: "\(error)", validRecordsAfter: 0)
            var check = FileCheck(path: path, kind: kind, validRecords: 0, damage: [damage])
            check.opensWithoutRepair = false
            return check
        }
    }

    /// The header of the journal or the audit log.
    private static func magic(of kind: FileCheck.Kind) -> Data {
        kind == .audit ? AuditLog.magic : JournalFile.magic
    }

    /// Writes the damaged ranges of the journal or the audit log to side files, then replaces the file with its header
    /// and every valid record.
    private static func repairAppendOnly(_ check: FileCheck, io: FileIO) throws -> FileCheck {
        var check = check
        let file = try mapped(check.path, io: io)
        let survey = appendOnlySurvey(file.bytes, kind: check.kind)
        check.sideFiles = try writeSideFiles(survey.damage, of: check.path, bytes: file.bytes, io: io)
        try io.writeAtomically(check.path) { fd, temporary in
            try io.writeAll(fd, magic(of: check.kind), path: temporary)
            try survey.writeFrames(from: file.bytes, to: fd, path: temporary, io: io)
        }
        let moved = survey.damage.reduce(0) { $0 + $1.length }
        check.action =
            "kept \(survey.frames.count) valid records, moved \(moved) damaged bytes in \(survey.damage.count) "
            + "range\(survey.damage.count == 1 ? "" : "s") to side files and rewrote the "
            + (check.kind == .audit ? "audit log" : "journal")
        return check
    }

    /// Writes the snapshot's damaged ranges to side files, then replaces it with its intact entries.
    private static func repairSnapshot(_ check: FileCheck, lastSequence: UInt64, io: FileIO) throws -> FileCheck {
        var check = check
        let file = try mapped(check.path, io: io)
        let (survey, header) = snapshotSurvey(file.bytes)
        check.sideFiles = try writeSideFiles(survey.damage, of: check.path, bytes: file.bytes, io: io)
        var table = CustomizationTable()
        let decoder = JSONDecoder()
        for frame in survey.frames.dropFirst(header == nil ? 0 : 1) {
            let payload = UnsafeRawBufferPointer(rebasing: file.bytes[frame.payload])
            if let record = try? JournalRecord.decode(json: payload, decoder: decoder) {
                table.apply(record.change)
            }
        }
        try SnapshotFile.write(table, lastSequence: lastSequence, to: check.path, io: io)
        var action = "kept \(check.validRecords) intact entries"
        if let declared = check.declaredEntries, declared > check.validRecords {
            action += " (\(declared - check.validRecords) of the \(declared) declared entries were lost)"
        } else if check.declaredEntries == nil {
            action += " (the header was lost: the whole journal replays over the snapshot)"
        }
        check.action = action + " and rewrote the snapshot"
        return check
    }

    private static func writeSideFiles(
        _ damage: [DamagedRange], of path: String, bytes: UnsafeRawBufferPointer, io: FileIO
    ) throws -> [String] {
        try damage.filter { $0.length > 0 }.map { range in
            let data = Data(UnsafeRawBufferPointer(rebasing: bytes[range.offset..<(range.offset + range.length)]))
            return try SideFile.write(data, from: path, at: range.offset, io: io)
        }
    }
}

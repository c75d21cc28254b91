import Foundation
import TabBarStore

/// The lines `store verify` and `store repair` print for a report.
enum StoreReportText {
    /// What verify found, file by file, then a summary line.
    static func verifyLines(_ report: StoreCheckReport) -> [String] {
        var lines: [String] = []
        if report.directoryInUse {
            lines.append("note: a server holds \(report.directory); a record being written now can show as a torn tail")
        }
        for file in report.files where file.kind != .version {
            lines.append("\(file.path): \(file.isClean ? "intact" : "DAMAGED"), \(count(file))")
            lines += damageLines(file)
        }
        let versions = Dictionary(grouping: report.files.filter { $0.kind == .version }) {
            ($0.path as NSString).deletingLastPathComponent
        }
        for directory in versions.keys.sorted() {
            let files = versions[directory] ?? []
            let intact = files.filter(\.isClean).count
            lines.append("\(directory): \(intact) of \(files.count) version file\(files.count == 1 ? "" : "s") intact")
            for file in files where !file.isClean {
                lines.append("\((file.path as NSString).lastPathComponent): DAMAGED")
                lines += damageLines(file)
            }
        }
        for side in report.earlierSideFiles {
            lines.append("side file of an earlier recovery (kept for inspection): \(side)")
        }
        let damaged = report.damagedFiles
        if damaged.isEmpty {
            lines.append("clean: \(report.files.count) file\(report.files.count == 1 ? "" : "s") intact in \(report.directory)")
        } else {
            let refuses = damaged.contains { !$0.opensWithoutRepair }
            lines.append(
                "damage found in \(damaged.count) of \(report.files.count) files; "
                    + (refuses
                        ? "serve refuses to start until repaired"
                        : "serve recovers by itself (moving the torn tails to side files)")
                    + "; `tabconfig store repair --data-dir \(report.directory)` keeps every valid record"
            )
        }
        return lines
    }

    /// What repair found and did, file by file, then a summary line.
    static func repairLines(_ report: StoreCheckReport) -> [String] {
        let damaged = report.damagedFiles
        guard !damaged.isEmpty else {
            return [
                "nothing to repair in \(report.directory): \(report.files.count) file\(report.files.count == 1 ? "" : "s") intact"
            ]
        }
        var lines: [String] = []
        for file in damaged {
            lines.append("\(file.path): \(file.action ?? "unchanged")")
            lines += damageLines(file, verdict: false).map { "  was" + $0.dropFirst() }
            for side in file.sideFiles {
                lines.append("  side file: \(side)")
            }
        }
        lines.append("repaired \(damaged.count) file\(damaged.count == 1 ? "" : "s") in \(report.directory); nothing was deleted")
        return lines
    }

    private static func count(_ file: FileCheck) -> String {
        switch file.kind {
        case .journal, .audit:
            return "\(file.validRecords) valid record\(file.validRecords == 1 ? "" : "s")"
        case .snapshot:
            let declared = file.declaredEntries.map { " of \($0) declared" } ?? " (header lost)"
            return "\(file.validRecords) intact entr\(file.validRecords == 1 ? "y" : "ies")\(declared)"
        case .version:
            return file.isClean ? "intact" : "damaged"
        case .builds:
            return file.isClean ? "\(file.validRecords) build manifest\(file.validRecords == 1 ? "" : "s")" : "damaged"
        case .rollouts:
            return file.isClean ? "\(file.validRecords) rollout state\(file.validRecords == 1 ? "" : "s")" : "damaged"
        case .changes:
            return file.isClean ? "\(file.validRecords) change request\(file.validRecords == 1 ? "" : "s")" : "damaged"
        }
    }

    private static func damageLines(_ file: FileCheck, verdict: Bool = true) -> [String] {
        guard !file.isClean else { return [] }
        let unit = file.kind == .version ? "valid later version" : "valid record"
        var lines = file.damage.map { range in
            let follows =
                [.builds, .rollouts, .changes].contains(file.kind)
                ? "written whole, so damaged after it was written"
                : range.isTornTail
                ? "nothing valid follows (torn tail)"
                : "\(range.validRecordsAfter) \(unit)\(range.validRecordsAfter == 1 ? "" : "s") follow (corruption in the middle)"
            let place =
                [.version, .builds, .rollouts, .changes].contains(file.kind)
                ? "whole file" : "byte offset \(range.offset)"
            return "  \(place), \(range.length) byte\(range.length == 1 ? "" : "s"): \(range.reason); \(follows)"
        }
        guard verdict else { return lines }
        lines.append(
            file.opensWithoutRepair
                ? "  serve: recovers by itself, moving the damage to a side file"
                : "  serve: refuses to start until `tabconfig store repair` runs"
        )
        return lines
    }
}

/// The tab opens counted and not yet reported, per config version, as kept on disk: bounded so that neither the
/// file nor a report can grow without end, and each version's counts fit one report the service accepts.
///
/// - At most ``maxVersions`` versions; counting for another one drops the lowest version (the oldest config, whose
///   counts the service no longer takes once a later one is live).
/// - At most ``maxTabs`` tabs a version; a further tab is not counted.
/// - A tab stops counting, opens and failures alike, once either reached ``maxCount``, until its counts are
///   reported: what is counted keeps the rate of failures it had, and each count stays within what a report may say.
/// - A tab id longer than ``maxTabIDLength`` bytes is not counted (the service's ids are 64 characters at most), so
///   that a report of 64 tabs stays well under the service's 16 KiB.
struct OpenCounts: Codable, Sendable, Hashable {
    /// The versions counted, lowest first.
    private(set) var versions: [OpenReport] = []

    static let maxVersions = 3
    static let maxTabs = 64
    static let maxCount = 1_000
    static let maxTabIDLength = 128

    /// Whether nothing is counted.
    var isEmpty: Bool { versions.isEmpty }

    /// Counts an open of `tab` in `version`, a failed one when `failed`, unless a bound says otherwise (see the type).
    mutating func count(tab: String, version: Int, failed: Bool) {
        guard !tab.isEmpty, tab.utf8.count <= Self.maxTabIDLength else { return }
        let index = versions.firstIndex { $0.version == version } ?? insert(version)
        guard let index else { return }
        var tabs = versions[index].tabs
        var counts = tabs[tab] ?? OpenReport.Counts()
        guard tabs[tab] != nil || tabs.count < Self.maxTabs, counts.opened < Self.maxCount,
            counts.failed < Self.maxCount
        else { return }
        if failed { counts.failed += 1 } else { counts.opened += 1 }
        tabs[tab] = counts
        versions[index].tabs = tabs
    }

    /// Takes `report` off, once the service accepted it or refused it for good: what was counted since it was taken
    /// stays.
    mutating func remove(_ report: OpenReport) {
        guard let index = versions.firstIndex(where: { $0.version == report.version }) else { return }
        for (tab, sent) in report.tabs {
            guard let counts = versions[index].tabs[tab] else { continue }
            let left = OpenReport.Counts(
                opened: max(0, counts.opened - sent.opened), failed: max(0, counts.failed - sent.failed))
            versions[index].tabs[tab] = left.opened == 0 && left.failed == 0 ? nil : left
        }
        if versions[index].tabs.isEmpty { versions.remove(at: index) }
    }

    /// The index of a new, empty `version` among the counted ones, the lowest dropped when there are
    /// ``maxVersions`` already; nil when `version` is lower than each of those (it is not counted).
    private mutating func insert(_ version: Int) -> Int? {
        if versions.count >= Self.maxVersions {
            guard version > versions[0].version else { return nil }
            versions.removeFirst()
        }
        let index = versions.firstIndex { $0.version > version } ?? versions.endIndex
        versions.insert(OpenReport(version: version), at: index)
        return index
    }
}

/// What a client keeps of tab opens in its reports file (``ClientStorage/reportsFile``): the opens counted and not
/// yet reported, and the mark of the tab whose destination is being made, if any.
struct ReportsFile: Codable, Sendable, Hashable {
    /// Set while a tab's destination is being made and until it is shown; a launch that finds it left over counts
    /// that tab as failed: the app ended (crashed) opening it.
    var opening: OpeningMark?
    /// The opens not yet reported.
    var counts = OpenCounts()

    /// Whether there is nothing to keep.
    var isEmpty: Bool { opening == nil && counts.isEmpty }

    /// The tab being opened and the version of the tab bar it belongs to.
    struct OpeningMark: Codable, Sendable, Hashable {
        var tab: String
        var version: Int
    }

    /// The file as a new launch reads it: a mark left over is counted as a failed open of its tab, and goes.
    func judgingLeftOverMark() -> ReportsFile {
        guard let opening else { return self }
        var judged = self
        judged.opening = nil
        judged.counts.count(tab: opening.tab, version: opening.version, failed: true)
        return judged
    }
}

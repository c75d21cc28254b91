/// The tab opens a client counted and the mark of the tab being opened, held in memory and kept in the reports file
/// of the user whose files the client holds (``ClientStorage/reportsFile``), written (atomically) by each change
/// before the call returns: a crash or a kill loses nothing counted.
///
/// Used from any thread: the app's calls (``TabBarClient/reportOpen(tab:version:)``, the opening mark) are
/// synchronous, so that a mark is on disk before the destination it guards is made. The file is read at the first
/// use; a mark it holds then is the last launch's, which ended while opening that tab: it is counted as a failure.
/// Without storage (`.me` while the token names no one) counts are kept in memory only.
final class ReportBook: Sendable {
    private struct State: Sendable {
        var storage: ClientStorage?
        var loaded = false
        var file = ReportsFile()
        /// Shut down: nothing is counted or written any more.
        var closed = false
    }

    private let state: Locked<State>

    init(storage: ClientStorage?) {
        state = Locked(State(storage: storage))
    }

    /// Keeps counting in `storage`'s file from now on (for `.me`, another user's). A mark of the user before is
    /// cleared: their opening is not judged.
    func hold(_ storage: ClientStorage?) {
        state.withLock { state in
            guard !state.closed else { return }
            if state.loaded, state.file.opening != nil {
                state.file.opening = nil
                Self.write(state)
            }
            state = State(storage: storage)
        }
    }

    /// Marks `tab` (of the tab bar of `version`) as being opened, replacing any other mark.
    func beginOpening(tab: String, version: Int) {
        change { $0.opening = ReportsFile.OpeningMark(tab: tab, version: version) }
    }

    /// Clears the mark of `tab`, if it is the one marked.
    func endOpening(tab: String) {
        change { if $0.opening?.tab == tab { $0.opening = nil } }
    }

    /// Counts an open of `tab` in `version`, a failed one when `failed` (within ``OpenCounts``' bounds), and clears
    /// its mark. Returns whether this made counts appear where there were none.
    @discardableResult
    func count(tab: String, version: Int, failed: Bool) -> Bool {
        change { file in
            let wasEmpty = file.counts.isEmpty
            file.counts.count(tab: tab, version: version, failed: failed)
            if file.opening?.tab == tab { file.opening = nil }
            return wasEmpty && !file.counts.isEmpty
        } ?? false
    }

    /// The reports to send, the newest version first, and whose they are (``ClientStorage/owner``).
    func reports() -> (owner: String?, reports: [OpenReport]) {
        state.withLock { state in
            Self.load(&state)
            return (state.storage?.owner, state.file.counts.versions.reversed())
        }
    }

    /// Takes off `report`, which the service accepted or refused for good, if the counts are still `owner`'s.
    func remove(_ report: OpenReport, owner: String?) {
        state.withLock { state in
            guard !state.closed, state.storage?.owner == owner else { return }
            Self.load(&state)
            state.file.counts.remove(report)
            Self.write(state)
        }
    }

    /// Whether opens are counted and not yet reported.
    var hasCounts: Bool {
        state.withLock { state in
            Self.load(&state)
            return !state.file.counts.isEmpty
        }
    }

    /// Counts and writes nothing from now on; what is on disk stays.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Applies `body` to the file and writes it when it changed; nil once closed.
    private func change<Result>(_ body: (inout ReportsFile) -> Result) -> Result? {
        state.withLock { state in
            guard !state.closed else { return nil }
            Self.load(&state)
            let before = state.file
            let result = body(&state.file)
            if state.file != before { Self.write(state) }
            return result
        }
    }

    /// Reads the file once, judging a mark the last launch left.
    private static func load(_ state: inout State) {
        guard !state.loaded else { return }
        state.loaded = true
        guard let stored = state.storage?.loadReports() else { return }
        state.file = stored.judgingLeftOverMark()
        if state.file != stored { write(state) }
    }

    /// Writes the file, best effort: one that cannot be written leaves the counts in memory, sent all the same.
    private static func write(_ state: State) {
        try? state.storage?.store(state.file)
    }
}

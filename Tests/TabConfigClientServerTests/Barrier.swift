/// Holds the first `count` callers of ``arrive()`` until all of them arrived, then lets every caller through at once.
actor Barrier {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var remaining: Int

    init(count: Int) {
        remaining = count
    }

    /// Waits for the others the first time round; returns at once after that.
    func arrive() async {
        guard remaining > 0 else { return }
        remaining -= 1
        if remaining == 0 {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

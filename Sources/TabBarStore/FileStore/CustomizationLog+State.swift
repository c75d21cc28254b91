extension CustomizationLog {
    /// Whether the log takes writes, and why not.
    enum State: Sendable {
        /// Writes are taken.
        case open
        /// A write, fsync or compaction failed, or the store was told to fail: writes are refused for good.
        case failed(reason: String)
        /// `close()` ran, after a failure with `failure`'s reason: writes are refused; those queued before still go
        /// to the journal unless it failed.
        case closed(failure: String?)

        /// Whether writes are taken.
        var isOpen: Bool {
            if case .open = self { return true }
            return false
        }

        /// Whether `close()` ran.
        var isClosed: Bool {
            if case .closed = self { return true }
            return false
        }

        /// Why the log failed, or nil.
        var failure: String? {
            switch self {
            case .open: nil
            case .failed(let reason): reason
            case .closed(let failure): failure
            }
        }

        /// Why writes are refused, or nil while they are taken.
        var unavailableReason: String? {
            isClosed ? failure ?? "the store is closed" : failure
        }

        /// The state after a failure for `reason`, or nil when the log has failed already (the first reason stays).
        func failing(_ reason: String) -> State? {
            switch self {
            case .open: .failed(reason: reason)
            case .closed(nil): .closed(failure: reason)
            case .failed, .closed: nil
            }
        }
    }
}

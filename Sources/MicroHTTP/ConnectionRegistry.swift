import Synchronization

/// The objects suspended connections are waiting on (the streams of streamed responses, the deferred responses), so
/// that shutdown can end them all.
final class ConnectionRegistry<Entry: AnyObject & Sendable>: Sendable {
    private struct Contents {
        var isClosed = false
        var entries: [ObjectIdentifier: Entry] = [:]
    }

    private let contents = Mutex(Contents())

    /// Records an entry; returns false (without recording it) once ``closeAll(_:)`` has run.
    func add(_ entry: Entry) -> Bool {
        contents.withLock { contents in
            guard !contents.isClosed else {
                return false
            }
            contents.entries[ObjectIdentifier(entry)] = entry
            return true
        }
    }

    /// Forgets an entry whose connection is done with it.
    func remove(_ entry: Entry) {
        _ = contents.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(entry)) }
    }

    /// The number of entries recorded.
    var count: Int {
        contents.withLock { $0.entries.count }
    }

    /// Refuses later entries, then calls `end` on every recorded one (outside the lock, so it may resume their
    /// connections); returns how many it ended.
    @discardableResult
    func closeAll(_ end: (Entry) -> Void) -> Int {
        let entries = contents.withLock { contents in
            contents.isClosed = true
            return Array(contents.entries.values)
        }
        for entry in entries {
            end(entry)
        }
        return entries.count
    }
}

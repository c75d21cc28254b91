import Synchronization

/// The streams of the streamed responses a server is sending, so that shutdown can end them.
final class StreamRegistry: Sendable {
    private struct Contents {
        var isFinishing = false
        var streams: [ObjectIdentifier: ResponseStream] = [:]
    }

    private let contents = Mutex(Contents())

    /// Records a stream being sent; returns false (without recording it) once ``finishAll()`` has run.
    func add(_ stream: ResponseStream) -> Bool {
        contents.withLock { contents in
            guard !contents.isFinishing else {
                return false
            }
            contents.streams[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    /// Forgets a stream whose connection is done with it.
    func remove(_ stream: ResponseStream) {
        _ = contents.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// The number of streams being sent.
    var count: Int {
        contents.withLock { $0.streams.count }
    }

    /// Finishes every stream being sent (resuming suspended connections) and every one added later; returns how many it finished.
    @discardableResult
    func finishAll() -> Int {
        let streams = contents.withLock { contents in
            contents.isFinishing = true
            return Array(contents.streams.values)
        }
        for stream in streams {
            stream.finish()
        }
        return streams.count
    }
}

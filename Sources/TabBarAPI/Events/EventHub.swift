import Dispatch
import Foundation
import Logging
import MicroHTTP
import Synchronization
import TabBarModel

/// The server-sent-event subscribers of every client: one event per published version, a comment heartbeat.
///
/// Subscribers hold no worker thread: each is a `ResponseStream` that the server feeds when bytes are written.
/// Version and deletion events are written on ``fanOut``, not on the publishing thread: a publish is answered once
/// it is durable, however many subscribers there are.
final class EventHub: Sendable {
    private struct Subscriber {
        var stream: ResponseStream
        var lastSent: Int
    }

    private struct State {
        var subscribers: [String: [ObjectIdentifier: Subscriber]] = [:]
        var count = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// Orders a subscription's first event against the version events of publishes (each handed to ``fanOut`` under
    /// it, in the order of the publishes), so that each subscriber sees versions in order. Never held by `remove`,
    /// so a stream that closes while being written to cannot deadlock the hub.
    private let delivery = Mutex(())
    /// The serial queue that writes version and deletion events to the subscribers, in the order they were published.
    let fanOut = DispatchQueue(label: "tabconfig.events.fan-out")
    private let maxSubscribers: Int
    private let timer: Mutex<(any DispatchSourceTimer)?>
    private let logger: Logger

    init(maxSubscribers: Int, heartbeatInterval: Duration, logger: Logger) {
        self.maxSubscribers = maxSubscribers
        self.logger = logger
        timer = Mutex(nil)
        let interval = DispatchTimeInterval.milliseconds(
            Int(heartbeatInterval.components.seconds * 1000 + heartbeatInterval.components.attoseconds / 1_000_000_000_000_000))
        timer.withLock { timer in
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tabconfig.events.heartbeat"))
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler { [weak self] in self?.heartbeat() }
            source.resume()
            timer = source
        }
    }

    /// Number of open subscriptions.
    var subscriberCount: Int { state.withLock { $0.count } }

    /// Adds `stream` as a subscriber of `client` and writes the live version first unless the subscriber already
    /// has it (`lastEventID`). Returns false when the subscriber limit is reached or the hub has stopped.
    func subscribe(client: String, stream: ResponseStream, lastEventID: Int?, live: () -> LiveConfig?) -> Bool {
        let key = ObjectIdentifier(stream)
        let accepted = delivery.withLock { _ -> Bool in
            let initial = state.withLock { state -> LiveConfig?? in
                guard !state.stopped, state.count < maxSubscribers else { return .none }
                let current = live()
                let version = current?.stored.version ?? 0
                state.subscribers[client, default: [:]][key] = Subscriber(stream: stream, lastSent: version)
                state.count += 1
                return .some(version > 0 && lastEventID != version ? current : nil)
            }
            guard let initial else { return false }
            if let current = initial {
                stream.write(Self.versionEvent(current))
            }
            return true
        }
        guard accepted else { return false }
        stream.onClose { [weak self] in self?.remove(client: client, key: key) }
        return true
    }

    /// Sends the event of a newly live version to every subscriber of its client, on ``fanOut``: returns at once.
    func published(_ live: LiveConfig) {
        let client = live.stored.client
        let version = live.stored.version
        let event = Self.versionEvent(live)
        delivery.withLock { _ in
            let streams = state.withLock { state -> [ResponseStream] in
                guard var subscribers = state.subscribers[client] else { return [] }
                var streams: [ResponseStream] = []
                for (key, subscriber) in subscribers where subscriber.lastSent < version {
                    streams.append(subscriber.stream)
                    subscribers[key]?.lastSent = version
                }
                state.subscribers[client] = subscribers
                return streams
            }
            guard !streams.isEmpty else { return }
            fanOut.async { streams.forEach { $0.write(event) } }
        }
    }

    /// Tells every subscriber of `client` that a build manifest changed (`event: builds`), so that apps revalidate
    /// their tab bar, on ``fanOut`` after the events before it: returns at once.
    func buildsChanged(client: String) {
        broadcast(Data("event: builds\ndata: {\"client\":\"\(client)\"}\n\n".utf8), to: client)
    }

    /// Tells every subscriber of `live`'s client that the staged rollout of `tab` moved (`event: rollout`, with where
    /// it stands and the coverage in effect), so that apps revalidate their tab bar, on ``fanOut`` after the events
    /// before it: returns at once.
    func rolloutChanged(_ live: LiveConfig, tab: String) {
        let client = live.stored.client
        guard let rolloutState = live.rollouts[tab],
            let rollout = live.stagedRollouts[tab]?.rollout
        else { return }
        struct Body: Encodable {
            var client: String
            var coverage: Double
            var phase: String
            var stage: Int
            var tab: String
            var version: Int
        }
        let body = Body(
            client: client, coverage: rollout.coverage(at: rolloutState.standing), phase: rolloutState.phase.rawValue,
            stage: rolloutState.stage, tab: tab, version: live.stored.version)
        broadcast(Data("event: rollout\ndata: ".utf8) + CanonicalJSON.encode(body) + Data("\n\n".utf8), to: client)
    }

    /// Writes `event` to every subscriber of `client`, on ``fanOut`` after the events before it.
    private func broadcast(_ event: Data, to client: String) {
        delivery.withLock { _ in
            let streams = state.withLock { $0.subscribers[client]?.values.map(\.stream) ?? [] }
            guard !streams.isEmpty else { return }
            fanOut.async { streams.forEach { $0.write(event) } }
        }
    }

    /// Tells every subscriber of `client` that it was deleted, then ends their streams, on ``fanOut`` after the
    /// version events before it: returns at once.
    func deleted(client: String) {
        let event = Data("event: deleted\ndata: {\"client\":\"\(client)\"}\n\n".utf8)
        delivery.withLock { _ in
            let streams = state.withLock { $0.subscribers[client]?.values.map(\.stream) ?? [] }
            guard !streams.isEmpty else { return }
            fanOut.async {
                for stream in streams {
                    stream.write(event)
                    stream.finish()
                }
            }
        }
    }

    /// Ends every stream and refuses new subscribers.
    func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        let streams = state.withLock { state -> [ResponseStream] in
            state.stopped = true
            return state.subscribers.values.flatMap { $0.values.map(\.stream) }
        }
        streams.forEach { $0.finish() }
    }

    private func remove(client: String, key: ObjectIdentifier) {
        state.withLock { state in
            guard state.subscribers[client]?.removeValue(forKey: key) != nil else { return }
            state.count -= 1
            if state.subscribers[client]?.isEmpty == true {
                state.subscribers[client] = nil
            }
        }
    }

    private func heartbeat() {
        let streams = state.withLock { $0.subscribers.values.flatMap { $0.values.map(\.stream) } }
        let comment = Data(": heartbeat\n\n".utf8)
        streams.forEach { $0.write(comment) }
    }

    /// `id:` the version; `data:` JSON with the version, its default locale and the ETag of its default tab bar in
    /// that locale: what a client that holds that tab bar sends as `If-None-Match` (it gets 304 only if it has this
    /// version already).
    static func versionEvent(_ live: LiveConfig) -> Data {
        let version = live.stored.version
        let locale = live.resolveLocale(query: nil, acceptLanguage: nil)
        let etag = EntityTag.defaultTabs(version: version, locale: locale).replacingOccurrences(of: "\"", with: "\\\"")
        return Data(
            "id: \(version)\nevent: version\ndata: {\"etag\":\"\(etag)\",\"locale\":\"\(locale)\",\"version\":\(version)}\n\n".utf8)
    }
}

import Foundation
import Glibc
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabBarClient: what becomes of a save, signing out, and the app's context, against the real service")
struct TabBarClientOutcomeTests {
    @Test("A save made while the service is down is pending; its stored outcome arrives once the service is back")
    func pendingOutcomeArrives() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let client = server.client(user: .id("traveller"))
        let base = TabOrderState(try await client.refresh().tabBar)
        let outcomes = client.saveOutcomes
        server.stop()

        let moved = TabOrderState(order: ["settings", "home", "search", "library", "favorites", "profile"])
        let outcome = try await client.save(TabOrderEdit(base: base, edited: moved))
        guard case .pending(let lastError?) = outcome, lastError.isRetryable else {
            Issue.record("a save while the service is down is pending, got \(outcome)")
            return
        }
        try server.restart()
        let later = await firstValue(of: outcomes, within: 20) { _ in true }
        #expect(later == .stored(revision: 1))
        #expect(try await server.storedOrder("app", "traveller").order == moved.order)
        #expect(await client.pendingEdit == nil)
        await client.shutdown()
    }

    @Test("sendPendingSave(timeout:): pending when the service does not answer in time; nil when nothing is pending")
    func sendTimesOut() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let storage = try TemporaryDirectory()
        defer { storage.remove() }
        var configuration = ClientFixtures.configuration(
            silent.url, user: .id("waiter"), storage: storage.url, bundled: ClientFixtures.bundled)
        configuration.requestTimeout = .seconds(2)
        let client = TabBarClient(configuration: configuration)
        #expect(try await client.sendPendingSave(timeout: .milliseconds(100)) == nil)

        let edit = TabOrderEdit(
            base: TabOrderState(order: ["home", "search"]), edited: TabOrderState(order: ["search", "home"]))
        let saved = try await client.save(edit)
        guard case .pending = saved else {
            Issue.record("a save the service never answers is pending, got \(saved)")
            return
        }
        #expect(try await client.sendPendingSave(timeout: .milliseconds(100)) == .pending(lastError: nil))
        #expect(await client.pendingEdit == edit)
        await client.shutdown()
    }

    @Test("Sign-out sends the pending save, then removes the user's files: the next launch shows the bundled tab bar")
    func signOutSendsThenForgets() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let configuration = server.configuration(user: .id("leaver"), bundled: ClientFixtures.bundled)
        let storage = ClientStorage(configuration)
        let moved = TabOrderState(order: ["profile", "home", "search", "library", "favorites", "settings"])
        let client = try await Self.savedOffline(moved, configuration, server)
        #expect(Self.filesKept(storage) == [true, true])
        try server.restart()

        #expect(try await client.signOut(timeout: .seconds(20)) == .stored(revision: 1))
        #expect(try await server.storedOrder("app", "leaver").order == moved.order)
        #expect(Self.filesKept(storage) == [false, false])
        await #expect(throws: TabBarClientError.stopped) { try await client.refresh() }

        server.stop()
        await Self.nextLaunch(configuration).shutdown()
    }

    @Test("Sign-out without sending drops a pending save of a .me user, and the next launch shows the bundled tab bar")
    func signOutOfMeDropsPending() async throws {
        let server = try await ClientTestServer.published { $0.userAuth.hs256Secret = ClientTestServer.hs256Secret }
        defer { server.close() }
        let token = try await ClientFixtures.token(for: "me-leaver")
        let configuration = server.configuration(user: .me, bundled: ClientFixtures.bundled, tokens: { token })
        let storage = ClientStorage(configuration, subject: "me-leaver")
        let moved = TabOrderState(order: ["favorites", "home", "search", "library", "profile", "settings"])
        let client = try await Self.savedOffline(moved, configuration, server)
        #expect(Self.filesKept(storage) == [true, true])

        #expect(try await client.signOut(sendingPendingSave: false) == nil)
        #expect(Self.filesKept(storage) == [false, false])

        try server.restart()
        let next = await Self.nextLaunch(configuration)
        #expect(await next.delivery { $0.source == .fresh } != nil)
        #expect(try await server.storedOrder("app", "me-leaver", token: token).revision == 0)
        await next.shutdown()
    }

    @Test("Sign-out after shutdown still removes the user's files: the next launch shows the bundled tab bar")
    func signOutAfterShutdown() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let configuration = server.configuration(user: .id("late-leaver"), bundled: ClientFixtures.bundled)
        let storage = ClientStorage(configuration)
        let moved = TabOrderState(order: ["search", "home", "library", "favorites", "profile", "settings"])
        let client = try await Self.savedOffline(moved, configuration, server)
        #expect(Self.filesKept(storage) == [true, true])
        await client.shutdown()

        #expect(try await client.signOut() == nil)
        #expect(Self.filesKept(storage) == [false, false])

        try server.restart()
        let next = await Self.nextLaunch(configuration)
        #expect(await next.delivery { $0.source == .fresh } != nil)
        #expect(try await server.storedOrder("app", "late-leaver").revision == 0)
        await next.shutdown()
    }

    /// A client of `configuration` that read the user's tab bar (kept on disk), then, with `server` stopped (it
    /// stays stopped), saved `moved` (pending, on disk).
    private static func savedOffline(
        _ moved: TabOrderState, _ configuration: TabBarClient.Configuration, _ server: ClientTestServer
    ) async throws -> TabBarClient {
        let client = TabBarClient(configuration: configuration)
        let base = TabOrderState(try await client.refresh().tabBar)
        server.stop()
        try await client.save(TabOrderEdit(base: base, edited: moved))
        return client
    }

    /// Whether the cached answer and the pending save of `storage` are on disk.
    private static func filesKept(_ storage: ClientStorage) -> [Bool] {
        [storage.answerFile, storage.pendingFile].map { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A client of `configuration` started as the next launch, which finds nothing of the user's: it shows the
    /// bundled default and holds no pending save.
    private static func nextLaunch(_ configuration: TabBarClient.Configuration) async -> TabBarClient {
        let next = TabBarClient(configuration: configuration)
        await next.start()
        #expect(next.current?.source == .bundled)
        #expect(await next.pendingEdit == nil)
        return next
    }

    @Test("Without a context the client sends its platform, the bundle's and the OS's versions; explicit values win")
    func appContextFromTheBundle() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        var config = ClientFixtures.config(ClientFixtures.ids)
        var beta = ClientFixtures.tab("beta")
        beta["when"] = [
            "appVersion": ["$vgte": "7.0.0"], "platform": TabBarContext.currentPlatform, "osVersion": ["$exists": true],
        ]
        config["tabs"] = (config["tabs"] as? [[String: Any]] ?? []) + [beta]
        _ = try await server.publish("app", config)

        let bundleDirectory = try TemporaryDirectory()
        defer { bundleDirectory.remove() }
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleShortVersionString": "7.1.0", "CFBundleIdentifier": "example.app"],
            format: .xml, options: 0)
        try plist.write(to: bundleDirectory.url.appendingPathComponent("Info.plist"))
        let bundle = try #require(Bundle(url: bundleDirectory.url))

        var described = server.configuration(name: "described")
        described.context = TabBarContext()
        described.appDefaults = .app(bundle: bundle)
        let client = TabBarClient(configuration: described)
        #expect(try await client.refresh().tabBar.tabs.map(\.id).contains("beta"))
        await client.shutdown()

        var explicit = described
        explicit.storageDirectory = ClientFixtures.storage(server.dataDirectory.url, "explicit")
        explicit.context = TabBarContext(appVersion: "6.9.0")
        let older = TabBarClient(configuration: explicit)
        #expect(try await !older.refresh().tabBar.tabs.map(\.id).contains("beta"))
        await older.shutdown()

        var silent = described
        silent.storageDirectory = ClientFixtures.storage(server.dataDirectory.url, "silent")
        silent.appDefaults = nil
        let undescribed = TabBarClient(configuration: silent)
        #expect(try await !undescribed.refresh().tabBar.tabs.map(\.id).contains("beta"))
        await undescribed.shutdown()
    }
}

/// A socket that listens on 127.0.0.1 but never accepts: a connection is made (the kernel's backlog) and a request
/// sent on it is never answered.
private final class SilentListener: Sendable {
    let descriptor: Int32
    let url: URL

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            Glibc.close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        descriptor = fd
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    }

    func close() {
        Glibc.close(descriptor)
    }
}

import Foundation
import Testing
import TestSupport

@testable import TabConfigClient

@Suite("TabConfigClientProbe: a pending save survives SIGKILL and is sent by the next process")
struct ProbeTests {
    @Test("A save made offline, killed with SIGKILL after its pending file was written, is sent by a new process")
    func killedOfflineSave() async throws {
        let server = try await ClientTestServer.published()
        defer { server.close() }
        let killed = ClientStorage(server.configuration(user: .id("killed"), name: "probe"))
        let storage = killed.directory
        server.stop()
        let edited = ["favorites", "home", "search", "library", "profile", "settings"]
        let common = [
            "--base-url", server.baseURL.absoluteString, "--client", "app", "--user", "killed",
            "--storage", storage.path, "--base-delay-ms", "50", "--max-delay-ms", "200",
        ]
        let saver = try ProbeProcess(
            ["save"] + common + [
                "--base-revision", "0", "--base-order", ClientFixtures.ids.joined(separator: ","),
                "--order", edited.joined(separator: ","),
            ])
        #expect(await saver.printed { $0 == "pending-written" })
        #expect(saver.kill())
        #expect(!saver.output.contains { $0.hasPrefix("saved") })
        let pending = try #require(killed.loadPending())
        #expect(pending.edit.edited.order == edited)

        try server.restart()
        let resumer = try ProbeProcess(["resume"] + common)
        #expect(await resumer.printed { $0 == "pending-loaded order=\(edited.joined(separator: ","))" })
        #expect(await resumer.printed { $0.hasPrefix("saved revision=1 ") })
        #expect(await resumer.exitStatus() == 0)
        let stored = try await server.storedOrder("app", "killed")
        #expect(stored.order == edited)
        #expect(stored.revision == 1)
        #expect(killed.loadPending() == nil)
    }
}

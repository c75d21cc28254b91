import Foundation
import Testing

@testable import TabConfigClient

@Suite("TabBarClient.signOut: the user's files go, whatever state the client is in")
struct SignOutTests {
    @Test("Sign-out after shutdown removes the user's cached answer and pending save")
    func signOutAfterShutdown() async throws {
        let scratch = Scratch()
        let storage = scratch.storage()
        try storage.store(CachedAnswer(request: "GET /tabs", etag: nil, body: Data("{}".utf8), receivedAt: Date()))
        let edit = TabOrderEdit(base: TabOrderState(order: ["a", "b"]), edited: TabOrderState(order: ["b", "a"]))
        try storage.store(PendingSave(owner: storage.owner, edit: edit, baseRevision: 0))
        let client = TabBarClient(configuration: scratch.configuration())
        await client.shutdown()

        #expect(try await client.signOut() == nil)
        #expect(!FileManager.default.fileExists(atPath: storage.answerFile.path))
        #expect(!FileManager.default.fileExists(atPath: storage.pendingFile.path))
    }
}

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing
import TestSupport
@testable import TabBarStore

/// Work on the database that can never wait for good: on a connection the server closes (``ConnectionWatch``), and
/// past the store's timeout (``DatabaseTask/bounded(by:logger:_:)``).
@Suite("Connection watch")
struct ConnectionWatchTests {
    @Test("a transaction whose backend is terminated mid-statement fails, every time out of 20")
    func terminatedBackend() async throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = try PostgresStore(url: try #require(PostgresStoreURL(url)), logger: .silent)
        defer { store.close() }
        let database = store.client
        var outcomes: [String] = []
        for round in 0..<20 {
            let tag = "terminated-\(round)"
            // On a thread of its own: a task could wait for a cooperative thread while other suites' tests hold both.
            let stop = DispatchSemaphore(value: 0)
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                defer { stopped.signal() }
                // Until the statement runs: then its backend is terminated, as PostgreSQL's shutdown does.
                repeat {
                    let terminated = try? TestPostgres.sql(
                        url,
                        """
                        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                        WHERE query LIKE '%\(tag)%' AND pid <> pg_backend_pid()
                        """)
                    if let terminated, terminated != "0" { return }
                } while stop.wait(timeout: .now() + .milliseconds(10)) == .timedOut
            }
            do {
                // Bounded so that a failure of the watch shows as "waited", not as a test that never ends.
                try await DatabaseTask.bounded(by: .seconds(20), logger: .silent) {
                    try await database.transaction(logger: .silent) { connection in
                        let statement = PostgresQuery(unsafeSQL: "SELECT pg_sleep(60) -- \(tag)")
                        for try await _ in try await connection.query(statement, logger: .silent) {}
                    }
                }
                outcomes.append("committed")
            } catch {
                outcomes.append(error as? StoreError == .unavailable ? "waited" : "failed")
            }
            // The pool can hand out a connection closed by the previous round: then BEGIN fails, and there is
            // nothing to terminate.
            stop.signal()
            stopped.wait()
        }
        #expect(outcomes == Array(repeating: "failed", count: 20))
    }

    @Test("a bounded operation whose work never finishes, cancellation ignored, is answered unavailable")
    func boundedGivesUp() async throws {
        let stuck = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let finished = Atomic<Int>(0)
        await #expect(throws: StoreError.unavailable) {
            try await DatabaseTask.bounded(by: .milliseconds(200), logger: .silent) {
                await withCheckedContinuation { continuation in stuck.withLock { $0 = continuation } }
                finished.add(1, ordering: .relaxed)
            }
        }
        // The work is left behind, not resumed twice: let it finish now.
        stuck.withLock { $0.take() }?.resume()
        let value = try await DatabaseTask.bounded(by: .seconds(20), logger: .silent) { 42 }
        #expect(value == 42)
    }
}
#endif

/// A PostgreSQL cluster of one test's own, for what the shared one (``TestPostgres``) cannot take: being stopped and
/// started again. Removed by ``stop()`` (or when the test process exits).
public final class TestPostgresCluster: Sendable {
    /// The URL of its `postgres` database, as both the store and psql take it.
    public let url: String
    private let directory: String

    /// Creates and starts the cluster.
    public init() throws {
        directory = TestPostgres.newClusterDirectory()
        url = try TestPostgres.startCluster(in: directory).get() + TestPostgres.sslDisabled
    }

    /// Stops the server, keeping the data: the database is unreachable until ``resume()``.
    public func pause() throws {
        _ = try TestPostgres.script(["pause", directory]).get()
    }

    /// Starts the server again on the same port.
    public func resume() throws {
        _ = try TestPostgres.script(["resume", directory]).get()
    }

    /// Stops the server and removes its data.
    public func stop() {
        _ = TestPostgres.script(["stop", directory])
    }
}

/// A change a store learned of from outside this process: another replica's write to a shared database.
public enum StoreChange: Sendable, Equatable {
    /// The client's live version changed (a publish or a rollback).
    case published(client: String)
    /// The client was deleted.
    case deleted(client: String)
    /// The store re-read everything (after losing its connection for notices): any client may have changed.
    case reloaded
}

import Foundation

/// A save not yet stored by the service, as kept on disk until it is: the edit, the revision its base was read at,
/// and whose tab order it changes.
struct PendingSave: Codable, Sendable, Hashable {
    /// Tells one pending save from the one that replaces it while it is being sent.
    var id: UUID
    /// The client and user (``ClientStorage/owner``): a save is sent only by a client configured for the same, and
    /// for `.me` only with a token of the same user.
    var owner: String
    /// The user's change.
    var edit: TabOrderEdit
    /// The revision of the user's stored customization that `edit.base` was read at.
    var baseRevision: Int
    /// When the user made the first edit of it.
    var createdAt: Date

    init(owner: String, edit: TabOrderEdit, baseRevision: Int, createdAt: Date = Date()) {
        id = UUID()
        self.owner = owner
        self.edit = edit
        self.baseRevision = baseRevision
        self.createdAt = createdAt
    }

    /// This save followed by `next`, as one edit from this one's base.
    func followed(by next: TabOrderEdit) -> PendingSave {
        var combined = self
        combined.id = UUID()
        combined.edit = edit.followed(by: next)
        return combined
    }

    /// The edit made again on `latest`, whose customization has revision `revision`.
    func rebased(on latest: TabOrderState, revision: Int) -> PendingSave {
        var rebased = self
        rebased.id = UUID()
        rebased.edit = TabOrderEdit(base: latest, edited: edit.applied(to: latest))
        rebased.baseRevision = revision
        return rebased
    }
}

/// The user's save waiting to be stored by the service, kept on disk before anything is sent: at most one, which a
/// later edit is composed into, replaced by its rebased form after another device's save, removed once stored or
/// refused. Also the user's stored order as last read (``storedOrder``), whose ETag a write sends as `If-Match`.
struct SaveQueue: Sendable {
    /// The files it reads and writes, whose owner the saves are; nil for nobody's (`.me` while the token names no
    /// one): nothing is read, and nothing can be queued.
    let storage: ClientStorage?
    /// The save not yet stored by the service, as on disk.
    private(set) var pending: PendingSave?
    /// The user's stored customization as last read, with its ETag.
    var storedOrder: (order: TabOrder, etag: String?)?
    /// Whether the disk was read.
    private(set) var loaded = false

    init(storage: ClientStorage?) {
        self.storage = storage
    }

    /// Reads the pending save from the disk once.
    mutating func load() {
        guard !loaded else { return }
        loaded = true
        pending = storage?.loadPending()
    }

    /// Queues `edit`, made on the customization of revision `baseRevision`: composed with the pending save when
    /// there is one, else a new one (none for an empty edit). Returns whether a save is now pending; throws when it
    /// could not be kept, or there is no owner to keep it for.
    mutating func enqueue(_ edit: TabOrderEdit, baseRevision: Int) throws -> Bool {
        guard let storage else { throw TabBarClientError.noUser }
        if let pending {
            try keep(pending.followed(by: edit))
        } else if !edit.isEmpty {
            try keep(PendingSave(owner: storage.owner, edit: edit, baseRevision: baseRevision))
        }
        return pending != nil
    }

    /// The pending save made again on `latest`, the stored state of revision `revision`.
    mutating func rebase(on latest: TabOrderState, revision: Int) throws {
        guard let pending else { return }
        try keep(pending.rebased(on: latest, revision: revision))
    }

    /// The service stored `save` or refused it for good: it goes, unless a newer edit replaced it meanwhile (that
    /// one is sent next). Returns whether it went.
    @discardableResult
    mutating func remove(_ save: PendingSave) throws -> Bool {
        guard pending?.id == save.id else { return false }
        try storage?.removePending()
        pending = nil
        return true
    }

    /// Writes `save` to the pending-save file, then holds it.
    private mutating func keep(_ save: PendingSave) throws {
        try storage?.store(save)
        pending = save
    }
}

/// The caller's part of an audit entry, passed with a publish or a delete; the store adds the rest (sequence, time,
/// client, version numbers) once the change is decided.
public struct AuditRecord: Sendable {
    /// The name of the admin key that made the change.
    public var key: String
    /// What kind of change it is.
    public var action: AuditAction
    /// The id of the request that made the change, if any.
    public var requestID: String?
    /// Called by the store once the change is decided (client locked, number chosen), before it is written,
    /// with the version live before the change (nil when none). Pure and quick (it decodes and diffs JSON).
    public var summarize: @Sendable (_ previous: ConfigVersion?) -> AuditSummary
    /// For a staged rollout's change: what was decided, on which figures (the store adds the revision).
    public var rollout: AuditRollout?

    /// Creates a record.
    public init(
        key: String, action: AuditAction, requestID: String?,
        summarize: @escaping @Sendable (_ previous: ConfigVersion?) -> AuditSummary
    ) {
        self.key = key
        self.action = action
        self.requestID = requestID
        self.summarize = summarize
    }

    /// The record of a staged rollout's change: the document is unchanged, so its summary is empty.
    public init(key: String, action: AuditAction, requestID: String?, rollout: AuditRollout) {
        self.init(key: key, action: action, requestID: requestID) { _ in AuditSummary() }
        self.rollout = rollout
    }
}

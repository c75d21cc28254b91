extension Response {
    /// A response sent once `deferred` is completed; no server thread waits for it meanwhile.
    public init(deferred: DeferredResponse) {
        self.init(status: 202)
        self.deferred = deferred
    }
}

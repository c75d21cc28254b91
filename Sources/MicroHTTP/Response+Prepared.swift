extension Response {
    /// Sends `prepared` as it is.
    public init(prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers, body: prepared.body)
        self.prepared = prepared
    }
}

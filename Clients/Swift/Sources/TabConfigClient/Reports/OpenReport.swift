/// One report of tab opens, the body of `POST /v1/clients/{client}/reports`: the opens and failed opens of each tab
/// in the config version they were counted in, `{"version": 7, "tabs": {"shop": {"opened": 12, "failed": 1}}}`.
struct OpenReport: Codable, Sendable, Hashable {
    /// The config version of the tab bar shown when the tabs were opened.
    var version: Int
    /// The counts by tab id.
    var tabs: [String: Counts] = [:]

    /// A tab's opens: those that showed it, and those that could not (its destination could not be made, or the app
    /// crashed making it).
    struct Counts: Codable, Sendable, Hashable {
        var opened = 0
        var failed = 0
    }
}

import Foundation

/// Drives the operations of openapi.yaml through the generated client, one checklist line per call. Each call must
/// decode into the case its documented status gives (`.ok`, `.created`, `.notModified`, …).
struct OperationRun {
    let client: Client
    let checklist: Checklist
    let counter: RequestCounter

    /// The client the check publishes to (a new one, so the server's sample is left alone).
    static let clientID = "generated-client"
    /// The client the plist import creates; deleted at the end, which also ends its event stream.
    static let plistClientID = "generated-plist"
    /// The user whose tab order, open tabs and tab bar are read and written; in the experiment's group.
    static let user = SampleConfig.betaUser

    /// Every operation, in an order where each finds what it needs.
    func all() async {
        await probes()
        let published = await publishing()
        await versions(published: published)
        await builds()
        await defaultTabBar()
        await tabOrder()
        await userTabBar()
        await explain()
        await plistAndEvents()
        await audit(since: published?.publishedAt)
    }

    /// RFC 3339 text of a decoded date, as the default transcoder writes it.
    static func text(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

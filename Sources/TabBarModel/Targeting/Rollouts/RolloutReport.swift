import Foundation

/// Body of `POST /v1/clients/{client}/reports` (docs/rollouts.md): the opens of tabs an app counted for one config
/// version, `{"version": 7, "tabs": {"shop": {"opened": 12, "failed": 1}}}`.
public struct RolloutReport: Sendable, Equatable {
    /// The largest body accepted, in bytes (HTTP 413 beyond).
    public static let maximumBytes = 16 * 1024
    /// The most tabs one report names.
    public static let maximumTabs = 64
    /// The largest count of one tab in one report.
    public static let maximumCount = 1_000

    /// The config version the counts are for.
    public var version: Int
    /// Opens that worked and that failed, by tab id.
    public var tabs: [String: (opened: Int, failed: Int)]

    /// Creates a report.
    public init(version: Int, tabs: [String: (opened: Int, failed: Int)]) {
        self.version = version
        self.tabs = tabs
    }

    public static func == (a: RolloutReport, b: RolloutReport) -> Bool {
        a.version == b.version && a.tabs.count == b.tabs.count
            && a.tabs.allSatisfy { key, value in b.tabs[key].map { $0 == value } ?? false }
    }
}

extension RolloutReport {
    /// Strict decode: `version` an integer ≥ 1, `tabs` an object of at most 64 tab ids, each an object of `opened`
    /// and `failed`, integers 0…1,000 (either may be left out: 0); unknown fields and wrong types are problems with
    /// pointers (HTTP 422), a body that is not JSON HTTP 400.
    public static func decode(json: Data) -> Result<RolloutReport, TabOrderDecodingError> {
        JSONReader.readBody(json: json) { reader, root in read(root, reader: &reader) }
    }

    private static func read(_ root: JSONValue, reader: inout JSONReader) -> RolloutReport {
        var report = RolloutReport(version: 0, tabs: [:])
        guard let object = reader.object(root, at: "", allowedKeys: ["version", "tabs"]) else { return report }
        if reader.required(object, "version") != nil, let version = reader.integer(object, "version") {
            if version < 1 { reader.report(object.pointer("version"), "must be at least 1, found \(version)") }
            report.version = version
        }
        guard reader.required(object, "tabs") != nil, let tabsValue = object["tabs"],
            let tabs = reader.object(tabsValue, at: object.pointer("tabs"), allowedKeys: nil)
        else { return report }
        if tabs.members.count > maximumTabs {
            reader.report(object.pointer("tabs"), "must name at most \(maximumTabs) tabs, names \(tabs.members.count)")
        }
        for (tab, value) in tabs.members.sorted(by: { $0.key < $1.key }) {
            let pointer = tabs.pointer(tab)
            if !Tab.isValidID(tab) {
                reader.report(pointer, "is not a tab id: ^[a-z0-9][a-z0-9._-]{0,63}$")
            }
            guard let counts = reader.object(value, at: pointer, allowedKeys: ["opened", "failed"]) else { continue }
            var figures = (opened: 0, failed: 0)
            for name in ["opened", "failed"] {
                guard let count = reader.integer(counts, name) else { continue }
                if !(0...maximumCount).contains(count) {
                    reader.report(counts.pointer(name), "must be 0…\(maximumCount), found \(count)")
                }
                if name == "opened" { figures.opened = count } else { figures.failed = count }
            }
            report.tabs[tab] = figures
        }
        return report
    }
}

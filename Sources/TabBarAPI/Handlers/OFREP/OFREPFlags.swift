import Foundation
import TabBarModel

/// The flags of one resolved tab bar (docs/openfeature.md): `tabs`, `initialTab`, `tab.<id>` for every tab of the
/// config (top level and children, in document order) and `experiment.<key>` for every experiment. Every value is
/// read off the bar the tab-bar GET answers for the same context; the config only says what decided it (the reason).
struct OFREPFlags {
    /// A tab bar as the tab-bar GET resolves it, with what reasons are read from.
    struct ResolvedBar {
        let live: LiveConfig
        let encoded: EncodedTabBar
        /// The body of the tab-bar GET.
        let body: Data
        /// Its tag.
        let etag: String
        /// The tabs of the config the bar holds.
        let tabIDs: Set<String>
        /// Whether the bar is a user's.
        let isUsers: Bool
        /// What the context's build cannot open, when it names a registered build.
        let absence: BuildAbsence?
    }

    /// One evaluated flag.
    struct Flag {
        enum Value {
            case object(Data)
            case bool(Bool)
            case string(String)
        }

        let key: String
        let value: Value
        /// OFREP's reason: `STATIC`, `TARGETING_MATCH` or `SPLIT`.
        let reason: String
        let variant: String
    }

    let bar: ResolvedBar

    /// Every flag, in the order documented.
    var all: [Flag] {
        var flags = [tabsFlag, initialTabFlag]
        flags.reserveCapacity(2 + bar.live.tabDeciders.count + (bar.live.config.experiments?.count ?? 0))
        for (id, decider) in bar.live.tabDeciders {
            flags.append(tabFlag(id, decider: decider))
        }
        for experiment in bar.live.config.experiments ?? [] {
            flags.append(experimentFlag(experiment.key))
        }
        return flags
    }

    /// The flag `key`; nil when the client has none by that key.
    func flag(_ key: String) -> Flag? {
        switch key {
        case "tabs": return tabsFlag
        case "initialTab": return initialTabFlag
        default:
            if key.hasPrefix("tab.") {
                let id = key.dropFirst(4)
                return bar.live.tabDeciders.first { $0.id == id }.map { tabFlag($0.id, decider: $0.decider) }
            }
            if key.hasPrefix("experiment."), bar.live.config.experiments?.contains(where: { $0.key == key.dropFirst(11) }) == true {
                return experimentFlag(String(key.dropFirst(11)))
            }
            return nil
        }
    }

    /// `tabs`: the tab bar itself, its tag (without quotes) the variant.
    private var tabsFlag: Flag {
        let reason =
            bar.encoded.experiment != nil
            ? "SPLIT" : !bar.live.targeting.isEmpty || bar.absence != nil || bar.isUsers ? "TARGETING_MATCH" : "STATIC"
        return Flag(
            key: "tabs", value: .object(bar.body), reason: reason, variant: String(bar.etag.dropFirst().dropLast()))
    }

    /// `initialTab`: `SPLIT` when the experiment's variation set it, `TARGETING_MATCH` when it fell back from the
    /// config's (absent for this context).
    private var initialTabFlag: Flag {
        let initialTab = bar.encoded.initialTab
        let reason: String
        if let assignment = bar.encoded.experiment,
            let experiment = bar.live.config.experiments?.first(where: { $0.key == assignment.key }),
            experiment.variations.indices.contains(assignment.variation),
            experiment.variations[assignment.variation].initialTab != nil
        {
            reason = "SPLIT"
        } else {
            reason = initialTab == bar.live.config.effectiveInitialTab ? "STATIC" : "TARGETING_MATCH"
        }
        return Flag(key: "initialTab", value: .string(initialTab), reason: reason, variant: initialTab)
    }

    /// `tab.<id>`: whether the bar holds the tab; `on` / `off` the variant.
    private func tabFlag(_ id: String, decider: TabDecider) -> Flag {
        let present = bar.tabIDs.contains(id)
        let reason: String
        if bar.absence?.absentIDs.contains(id) == true {
            reason = "TARGETING_MATCH"
        } else {
            switch decider {
            case .retired: reason = "STATIC"
            case .bucket: reason = "SPLIT"
            case .conditions: reason = "TARGETING_MATCH"
            case .fixed where present: reason = "STATIC"
            case .fixed: reason = bar.encoded.experiment != nil ? "SPLIT" : "TARGETING_MATCH"
            }
        }
        return Flag(key: "tab." + id, value: .bool(present), reason: reason, variant: present ? "on" : "off")
    }

    /// `experiment.<key>`: the variation index applied (`SPLIT`), or `none` (`TARGETING_MATCH`).
    private func experimentFlag(_ key: String) -> Flag {
        guard let assignment = bar.encoded.experiment, assignment.key == key else {
            return Flag(key: "experiment." + key, value: .string("none"), reason: "TARGETING_MATCH", variant: "none")
        }
        let variation = String(assignment.variation)
        return Flag(key: "experiment." + key, value: .string(variation), reason: "SPLIT", variant: variation)
    }

    /// The bulk answer: `{"flags": [...], "metadata": {"client", "version"}}`.
    func bulkBody() -> Data {
        let flags = all
        var body: [UInt8] = []
        body.reserveCapacity(bar.body.count + 128 * flags.count + 64)
        DirectJSON.append("{\"flags\":[", to: &body)
        for (index, flag) in flags.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            append(flag, to: &body)
        }
        DirectJSON.append("],\"metadata\":{\"client\":", to: &body)
        DirectJSON.appendString(bar.live.stored.client, to: &body)
        DirectJSON.append(",\"version\":", to: &body)
        DirectJSON.appendDecimal(bar.live.stored.version, to: &body)
        DirectJSON.append("}}", to: &body)
        return Data(body)
    }

    /// A single evaluation's answer.
    func body(of flag: Flag) -> Data {
        var body: [UInt8] = []
        body.reserveCapacity(bar.body.count + 160)
        append(flag, to: &body)
        return Data(body)
    }

    /// `{"key", "metadata": {"version"}, "reason", "value", "variant"}`.
    private func append(_ flag: Flag, to body: inout [UInt8]) {
        DirectJSON.append("{\"key\":", to: &body)
        DirectJSON.appendString(flag.key, to: &body)
        DirectJSON.append(",\"metadata\":{\"version\":", to: &body)
        DirectJSON.appendDecimal(bar.live.stored.version, to: &body)
        DirectJSON.append("},\"reason\":", to: &body)
        DirectJSON.appendString(flag.reason, to: &body)
        DirectJSON.append(",\"value\":", to: &body)
        switch flag.value {
        case .object(let data): body.append(contentsOf: data)
        case .bool(let value): value ? DirectJSON.append("true", to: &body) : DirectJSON.append("false", to: &body)
        case .string(let value): DirectJSON.appendString(value, to: &body)
        }
        DirectJSON.append(",\"variant\":", to: &body)
        DirectJSON.appendString(flag.variant, to: &body)
        body.append(UInt8(ascii: "}"))
    }
}

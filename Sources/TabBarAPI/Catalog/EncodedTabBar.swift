import Foundation
import TabBarModel

/// One version's tab bar in one locale for one targeting outcome, encoded once: the whole default tab bar, and the pieces from which any
/// user's merged tab bar is put together by concatenation, byte for byte what encoding `resolve`'s result gives.
///
/// A user's request then costs the merge of tab ids and copying bytes; no tab is localized or encoded again. A class:
/// a request takes it from the version's cache with one reference.
final class EncodedTabBar: Sendable {
    /// The default tab bar (no `customization` member).
    let defaultBody: Data
    private let plan: MergePlan
    private let maxVisibleTabs: Int
    /// The user variant up to and including `"customization":`.
    private let head: [UInt8]
    /// From after the customization value up to and including `"tabs":[`.
    private let middle: [UInt8]
    /// From the closing `]` of `tabs` to the end.
    private let tail: [UInt8]
    /// Each shown top-level tab (by index into `plan.shownIDs`), encoded with placement "bar" and with "more".
    private let tabs: [(bar: [UInt8], more: [UInt8])]
    /// The config, for the tabs a user opened, and the locale they are resolved in.
    private let config: TabBarConfig
    private let locale: String
    /// The config's templates, each encoded around the holes an open tab fills: encoding an open tab through
    /// `CanonicalJSON` costs about as much as the rest of the answer.
    private let templates: [EncodedTemplate]
    /// Bytes to reserve per open tab (``EncodedTemplate/capacity``, the largest).
    private let openTabCapacity: Int
    /// Each shown top-level tab's id and its shown children's (by index into `plan.shownIDs`), for the tabs a bar
    /// holds.
    private let tabIDs: [[String]]
    /// The ids of the tabs (top level and children) in the default tab bar.
    let defaultTabIDs: Set<String>
    /// The bodies' `initialTab`.
    let initialTab: String
    /// The bodies' `experiment`.
    let experiment: ExperimentAssignment?
    /// About the bytes this holds, for the cache keeping it: the default body, the pieces, the templates (each about
    /// its ``EncodedTemplate/capacity``) and the ids.
    let byteCount: Int

    /// Marks where the customization goes in an encoded envelope: its encoding is an object, which no string's
    /// encoding contains (the quotes of a string's encoding are escaped).
    private static let marker = CustomizationSummary(source: "\u{1}customization\u{1}", revision: 0)
    private static let emptyTabs = Data("\"tabs\":[]".utf8)

    init(live: LiveConfig, locale: String, outcome: TargetingOutcome) {
        let layout = live.config.layout(for: outcome)
        plan = layout.plan
        maxVisibleTabs = layout.maxVisibleTabs
        config = live.config
        self.locale = locale
        templates = (live.config.tabTemplates ?? []).map { EncodedTemplate($0, of: live.config, locale: locale) }
        openTabCapacity = templates.map(\.capacity).max() ?? 0
        let resolved = live.config.resolve(
            layout, client: live.stored.client, version: live.stored.version, locale: locale, saved: nil)
        defaultBody = CanonicalJSON.encode(resolved)
        initialTab = resolved.initialTab
        experiment = resolved.experiment
        tabIDs = resolved.tabs.map(Self.ids)
        defaultTabIDs = Set(tabIDs.joined())
        tabs = resolved.tabs.map { tab in
            var bar = tab
            bar.placement = .bar
            var more = tab
            more.placement = .more
            return (Array(CanonicalJSON.encode(bar)), Array(CanonicalJSON.encode(more)))
        }
        var envelope = resolved
        envelope.tabs = []
        envelope.customization = Self.marker
        let encoded = CanonicalJSON.encode(envelope)
        let marker = CanonicalJSON.encode(Self.marker)
        guard let markerRange = encoded.firstRange(of: marker),
            let tabsRange = encoded[markerRange.upperBound...].ranges(of: Self.emptyTabs).last
        else {
            preconditionFailure("the encoded tab bar lacks its customization or tabs member")
        }
        head = Array(encoded[..<markerRange.lowerBound])
        middle = Array(encoded[markerRange.upperBound..<(tabsRange.upperBound - 1)])
        tail = Array(encoded[(tabsRange.upperBound - 1)...])
        byteCount =
            defaultBody.count + head.count + middle.count + tail.count
            + tabs.reduce(0) { $0 + $1.bar.count + $1.more.count } + templates.reduce(0) { $0 + $1.capacity }
            + defaultTabIDs.reduce(0) { $0 + 2 * $1.utf8.count + 32 } + 256
    }

    /// The ids of `tab` and of its children, depth first.
    private static func ids(_ tab: ResolvedTab) -> [String] {
        [tab.id] + (tab.children ?? []).flatMap(ids)
    }

    /// The user variant for `saved`: what `CanonicalJSON.encode(config.resolve(…, saved: saved))` gives.
    func userBody(_ saved: SavedCustomization) -> Data {
        userBody(plan.userOrder(saved))
    }

    /// The user variant for `saved` and the ids of the tabs of the configuration it holds (top level and children;
    /// not the tabs the user opened), from the one merge.
    func userBar(_ saved: SavedCustomization) -> (body: Data, tabIDs: Set<String>) {
        let merged = plan.userOrder(saved)
        var ids: Set<String> = []
        for position in merged.order where position < tabIDs.count {
            ids.formUnion(tabIDs[position])
        }
        return (userBody(merged), ids)
    }

    private func userBody(_ merged: (order: [Int], summary: CustomizationSummary?, plan: MergePlan)) -> Data {
        let (order, summary, userPlan) = merged
        var body: [UInt8] = []
        body.reserveCapacity(defaultBody.count + 256 + userPlan.dynamicTabs.count * openTabCapacity)
        body.append(contentsOf: head)
        if let summary {
            Self.append(summary, to: &body)
        }
        body.append(contentsOf: middle)
        for (index, position) in order.enumerated() {
            if index > 0 {
                body.append(UInt8(ascii: ","))
            }
            let inBar = TabBarConfig.isInBar(index: index, count: order.count, maxVisibleTabs: maxVisibleTabs)
            if position < tabs.count {
                body.append(contentsOf: inBar ? tabs[position].bar : tabs[position].more)
            } else {
                append(userPlan.dynamicTabs[position - tabs.count], inBar: inBar, to: &body)
            }
        }
        body.append(contentsOf: tail)
        return Data(body)
    }

    /// Appends a tab the user opened: through its template's encoding, or `CanonicalJSON` where that cannot write it.
    private func append(_ tab: DynamicTab, inBar: Bool, to body: inout [UInt8]) {
        if let template = templates.first(where: { $0.id == tab.template }),
            template.append(tab, inBar: inBar, to: &body)
        {
            return
        }
        var resolved = config.resolvedTab(tab, locale: locale)
        resolved.placement = inBar ? .bar : .more
        body.append(contentsOf: CanonicalJSON.encode(resolved))
    }

    /// Appends the summary as `CanonicalJSON` encodes it: written directly when every string is plain and nothing was
    /// replaced, else through the encoder.
    private static func append(_ summary: CustomizationSummary, to body: inout [UInt8]) {
        let start = body.count
        if summary.replaced.isEmpty, appendDirectly(summary, to: &body) {
            return
        }
        body.removeSubrange(start...)
        body.append(contentsOf: CanonicalJSON.encode(summary))
    }

    /// Appends a summary without replacements; false when one of its strings is not plain.
    private static func appendDirectly(_ summary: CustomizationSummary, to body: inout [UInt8]) -> Bool {
        body.append(UInt8(ascii: "{"))
        guard DirectJSON.appendMember("added", summary.added, to: &body) else { return false }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("dropped", summary.dropped, to: &body) else { return false }
        body.append(UInt8(ascii: ","))
        guard DirectJSON.appendMember("hidden", summary.hidden, to: &body) else { return false }
        DirectJSON.append(",\"replaced\":{},\"revision\":", to: &body)
        DirectJSON.appendDecimal(summary.revision, to: &body)
        DirectJSON.append(",\"source\":", to: &body)
        guard DirectJSON.appendPlain(summary.source, to: &body) else { return false }
        body.append(UInt8(ascii: "}"))
        return true
    }
}

/// What a build cannot open of a config (docs/design/model.md, "Build manifests"): the tabs, children and tab
/// templates whose destination its manifest lacks. They are absent for the build as tabs targeting leaves out are
/// (``TargetingOutcome/excluding(_:)``): before the merge and placement, not reported as dropped, kept in a saved
/// order. Computed once per manifest and config version, not per request.
public struct BuildAbsence: Sendable, Hashable {
    /// A tab or template the build cannot open, and why.
    public struct Missing: Sendable, Hashable {
        /// The tab's or template's id.
        public let id: String
        /// The tab's or template's own pointer (`/tabs/2`).
        public let tabPointer: String
        /// The pointer of the destination's member that names what the build lacks (`/tabs/2/destination/name`).
        public let pointer: String
        /// What the build lacks (`has no viewController ShopViewController`).
        public let reason: String
    }

    /// The tabs and children the build cannot open, in document order (their descendants are absent too but not
    /// listed).
    public let tabs: [Missing]
    /// The templates the build cannot open: tabs a user opened from them are absent.
    public let templates: [Missing]
    /// The ids of every absent tab: those in ``tabs`` and their descendants.
    public let absentIDs: Set<String>
    /// The ids of the templates in ``templates``.
    public let absentTemplates: Set<String>
    /// Empty when nothing is absent; else `.b` and the absent tabs and templates as a hexadecimal bit set over the
    /// config's tabs (document order) then its templates. Letters, digits and `.` only, as outcome keys are.
    public let key: String

    /// What a build with `manifest` cannot open of `config`.
    public init(config: TabBarConfig, manifest: BuildManifest) {
        var tabs: [Missing] = []
        var absentIDs: Set<String> = []
        var bits: [Bool] = []
        func visit(_ list: [Tab], at pointer: String, parentAbsent: Bool) {
            for (index, tab) in list.enumerated() {
                let tabPointer = JSONPointer.appending(index, to: pointer)
                var absent = parentAbsent
                if !parentAbsent, let missing = manifest.missing(tab.destination) {
                    tabs.append(
                        Missing(
                            id: tab.id, tabPointer: tabPointer, pointer: tabPointer + "/destination" + missing.pointer,
                            reason: missing.reason))
                    absent = true
                }
                if absent { absentIDs.insert(tab.id) }
                bits.append(absent)
                if let children = tab.children {
                    visit(children, at: JSONPointer.appending("children", to: tabPointer), parentAbsent: absent)
                }
            }
        }
        visit(config.tabs, at: "/tabs", parentAbsent: false)
        var templates: [Missing] = []
        for (index, template) in (config.tabTemplates ?? []).enumerated() {
            let missing = manifest.missing(template.destination)
            bits.append(missing != nil)
            if let missing {
                templates.append(
                    Missing(
                        id: template.id, tabPointer: "/tabTemplates/\(index)",
                        pointer: "/tabTemplates/\(index)/destination" + missing.pointer, reason: missing.reason))
            }
        }
        self.tabs = tabs
        self.templates = templates
        self.absentIDs = absentIDs
        absentTemplates = Set(templates.map(\.id))
        key = tabs.isEmpty && templates.isEmpty ? "" : ".b" + Self.hex(bits)
    }

    /// Whether the build can open everything.
    public var isEmpty: Bool { key.isEmpty }

    /// `bits` as hexadecimal, the first bit lowest, without leading zeros.
    private static func hex(_ bits: [Bool]) -> String {
        var nibbles = [UInt8](repeating: 0, count: (bits.count + 3) / 4)
        for (index, bit) in bits.enumerated() where bit {
            nibbles[index / 4] |= 1 << (index % 4)
        }
        let text = nibbles.reversed().map { String($0, radix: 16) }.joined().drop { $0 == "0" }
        return text.isEmpty ? "0" : String(text)
    }
}

extension TargetingOutcome {
    /// This outcome for a build that cannot open what `absence` names: its tabs absent too, its templates' open tabs
    /// absent, and a key that tells the two apart.
    public func excluding(_ absence: BuildAbsence) -> TargetingOutcome {
        guard !absence.isEmpty else { return self }
        return TargetingOutcome(
            key: key + absence.key, absentIDs: absentIDs.union(absence.absentIDs),
            absentTemplates: absentTemplates.union(absence.absentTemplates), experiment: experiment,
            experimentIndex: experimentIndex)
    }
}

extension TargetingExplanation {
    /// This explanation for the build `build`, which cannot open what `absence` names: each tab it lacks absent,
    /// with what the build lacks and its pointer, and its children absent with it. Tabs targeting left out keep
    /// their reason.
    public func excluding(_ absence: BuildAbsence, build: AppBuild) -> TargetingExplanation {
        var explanation = self
        for index in explanation.tabs.indices where explanation.tabs[index].present {
            let tab = explanation.tabs[index]
            if let missing = absence.tabs.first(where: { $0.tabPointer == tab.pointer }) {
                explanation.tabs[index].present = false
                explanation.tabs[index].reason = ExplanationReason(
                    pointer: missing.pointer, message: "build \(build) \(missing.reason)")
            } else if let parent = absence.tabs.first(where: { tab.pointer.hasPrefix($0.tabPointer + "/") }) {
                explanation.tabs[index].present = false
                explanation.tabs[index].reason = ExplanationReason(
                    pointer: parent.tabPointer, message: "its parent tab \"\(parent.id)\" is absent")
            }
        }
        return explanation
    }
}

import Foundation

/// The semantic rules of a config document (docs/design/model.md, "The config document") over a typed one. Problems at tainted pointers (places the JSON reader
/// already reported as unreadable) are suppressed, and so are checks that need data that could not be read.
struct ConfigValidator {
    /// Most characters in any string of the document.
    static let maximumStringLength = 256
    static let topLevelTabCount = 2...50
    static let maximumChildren = 50
    /// Levels of tabs allowed below the bar: top-level tabs are level 0, their children 1, grandchildren 2.
    static let maximumDepth = 2
    static let titleLength = 1...64
    static let maxVisibleTabsRange = 2...10
    static let maximumParameters = 32
    static let seedLength = 1...256
    /// The most stages a staged rollout has.
    static let maximumStages = 10
    /// The longest a stage holds, in seconds: 366 days.
    static let maximumHold = 366.0 * 86_400
    /// The most opens a guard may wait for.
    static let maximumMinOpens = 1_000_000_000
    static let maximumGroups = 100
    static let maximumGroupValues = 10_000
    static let groupValueLength = 1...256
    static let maximumExperiments = 20
    static let maximumTemplates = 20
    static let maxOpenRange = 1...50
    static let variationCount = 2...10
    /// A variation's order names each top-level tab at most once.
    static let maximumOrderLength = topLevelTabCount.upperBound
    /// How far from 1 an experiment's weights may sum.
    static let weightSumTolerance = 1e-6

    /// A tab with where it sits in the document.
    struct Entry {
        let tab: Tab
        let pointer: String
        let depth: Int
    }

    let config: TabBarConfig
    /// False when a part is checked on its own: what it names elsewhere in a document (tabs, groups) is not checked.
    let isWholeDocument: Bool
    private let tainted: [String]
    private var problems: [ValidationProblem] = []

    init(config: TabBarConfig, tainted: [String] = []) {
        self.init(config: config, tainted: tainted, isWholeDocument: true)
    }

    private init(config: TabBarConfig, tainted: [String], isWholeDocument: Bool) {
        self.config = config
        self.tainted = tainted
        self.isWholeDocument = isWholeDocument
    }

    /// Every problem, in document order of the checks.
    mutating func run() -> [ValidationProblem] {
        let count = config.tabs.count
        if !Self.topLevelTabCount.contains(count) {
            report("/tabs", "must have \(Self.describe(Self.topLevelTabCount)) tabs, has \(count)")
        }
        let entries = flatten(config.tabs, at: "/tabs", depth: 0)
        for entry in entries {
            checkTab(entry)
        }
        let idsComplete =
            !isTainted("/tabs")
            && !entries.contains { entry in
                isTainted(JSONPointer.appending("id", to: entry.pointer))
                    || isTainted(JSONPointer.appending("children", to: entry.pointer))
            }
        let firstByID = checkUniqueIDs(entries)
        checkReplaces(entries, firstByID: firstByID)
        checkDocumentFields(firstByID: firstByID, idsComplete: idsComplete)
        checkGroups()
        checkExperiments(firstByID: firstByID, idsComplete: idsComplete)
        checkTemplates(firstByID: firstByID)
        return problems
    }

    // MARK: - One part on its own

    /// A validator for one part of a document, read on its own at the empty pointer.
    init(tainted: [String]) {
        self.init(config: TabBarConfig(tabs: []), tainted: tainted, isWholeDocument: false)
    }

    /// A part of a document, read on its own.
    enum Part {
        case tab(Tab)
        case title(LocalizedTitle)
        case icon(Icon)
        case destination(Destination)
        case appearance(Appearance)
        case condition(Condition)
        case rollout(Rollout)
        case experiment(Experiment)
        case variation(Variation)
        case template(TabTemplate)
    }

    /// The rules of one part on its own, at the empty pointer. A tab counts as a top-level tab: its own rules and
    /// its children's, ids unique among them and `replaces` consistent. A condition counts as a tab's or an
    /// experiment's.
    mutating func run(_ part: Part) -> [ValidationProblem] {
        switch part {
        case .tab(let tab):
            var entries = [Entry(tab: tab, pointer: "", depth: 0)]
            if let children = tab.children {
                entries += flatten(children, at: "/children", depth: 1)
            }
            for entry in entries {
                checkTab(entry)
            }
            checkReplaces(entries, firstByID: checkUniqueIDs(entries))
        case .title(let title):
            checkTitle(title, at: "")
        case .icon(let icon):
            checkIcon(icon, at: "")
        case .destination(let destination):
            checkDestination(destination, at: "")
        case .appearance(let appearance):
            checkAppearance(appearance, at: "")
        case .condition(let condition):
            checkCondition(condition, at: "")
        case .rollout(let rollout):
            checkRollout(rollout, at: "")
        case .experiment(let experiment):
            checkExperiment(experiment, at: "", firstByID: [:], idsComplete: false)
        case .variation(let variation):
            checkVariation(variation, at: "", firstByID: [:], idsComplete: false)
        case .template(let template):
            checkTemplate(template, at: "")
        }
        return problems
    }

    private func flatten(_ tabs: [Tab], at pointer: String, depth: Int) -> [Entry] {
        var entries: [Entry] = []
        for (index, tab) in tabs.enumerated() {
            let tabPointer = JSONPointer.appending(index, to: pointer)
            entries.append(Entry(tab: tab, pointer: tabPointer, depth: depth))
            if let children = tab.children {
                entries += flatten(children, at: JSONPointer.appending("children", to: tabPointer), depth: depth + 1)
            }
        }
        return entries
    }

    // MARK: - One tab

    private mutating func checkTab(_ entry: Entry) {
        let tab = entry.tab
        let pointer = entry.pointer
        if !Tab.isValidID(tab.id) {
            report(pointer + "/id", "must match ^[a-z0-9][a-z0-9._-]{0,63}$, found \"\(tab.id)\"")
        }
        checkTitle(tab.title, at: pointer + "/title")
        if let icon = tab.icon {
            checkIcon(icon, at: pointer + "/icon")
        }
        checkDestination(tab.destination, at: pointer + "/destination")
        checkLength(tab.badge, at: pointer + "/badge")
        if let children = tab.children {
            if entry.depth >= Self.maximumDepth, !children.isEmpty {
                if entry.depth == Self.maximumDepth {
                    report(
                        pointer + "/children",
                        "too deep: tabs may nest at most \(Self.maximumDepth) levels below the bar"
                    )
                }
            } else if children.count > Self.maximumChildren {
                report(pointer + "/children", "must have at most \(Self.maximumChildren) tabs, has \(children.count)")
            }
        }
        if let replaces = tab.replaces {
            if !Tab.isValidID(replaces) {
                report(pointer + "/replaces", "must match ^[a-z0-9][a-z0-9._-]{0,63}$, found \"\(replaces)\"")
            } else if replaces == tab.id {
                report(pointer + "/replaces", "must not name the tab itself")
            }
        }
        checkTargeting(of: tab, at: pointer)
    }

    private mutating func checkIcon(_ icon: Icon, at pointer: String) {
        checkLength(icon.image, at: pointer + "/image")
        checkLength(icon.selectedImage, at: pointer + "/selectedImage")
    }

    private mutating func checkTitle(_ title: LocalizedTitle, at pointer: String) {
        checkLength(title.default, in: Self.titleLength, at: pointer + "/default")
        checkLength(title.key, at: pointer + "/key")
        guard let localized = title.localized else { return }
        var seen: [String: String] = [:]
        for tag in localized.keys.sorted() {
            let tagPointer = JSONPointer.appending(tag, to: pointer + "/localized")
            if !LocaleTag.isValid(tag) {
                report(tagPointer, "\"\(tag)\" is not a well-formed BCP 47 language tag")
            } else if let other = seen[tag.lowercased()] {
                report(tagPointer, "\"\(tag)\" duplicates \"\(other)\" (tags are case-insensitive)")
            } else {
                seen[tag.lowercased()] = tag
            }
            if let text = localized[tag] {
                checkLength(text, in: Self.titleLength, at: tagPointer)
            }
        }
    }

    private mutating func checkDestination(_ destination: Destination, at pointer: String) {
        let type = destination.type
        let fields: [(name: String, isSet: Bool)] = [
            ("name", destination.name != nil),
            ("nib", destination.nib != nil),
            ("embedInNavigationController", destination.embedInNavigationController != nil),
            ("identifier", destination.identifier != nil),
            ("url", destination.url != nil),
        ]
        let required: String
        let allowed: Set<String>
        switch type {
        case .viewController:
            required = "name"
            allowed = ["name", "nib", "embedInNavigationController"]
        case .storyboard:
            required = "name"
            allowed = ["name", "identifier"]
        case .url:
            required = "url"
            allowed = ["url"]
        }
        for field in fields where field.isSet && !allowed.contains(field.name) {
            report(pointer + "/" + field.name, "is not allowed for destination type \"\(type.rawValue)\"")
        }
        let requiredValue = required == "name" ? destination.name : destination.url
        if let value = requiredValue {
            if value.isEmpty {
                report(pointer + "/" + required, "must not be empty")
            } else if required == "url", !Self.isValidDestinationURL(value) {
                report(pointer + "/url", "must be an absolute http(s) URL or a custom-scheme URL without spaces")
            }
        } else {
            report(pointer + "/" + required, "is required for destination type \"\(type.rawValue)\"")
        }
        checkLength(destination.name, at: pointer + "/name")
        checkLength(destination.nib, at: pointer + "/nib")
        checkLength(destination.identifier, at: pointer + "/identifier")
        checkLength(destination.url, at: pointer + "/url")
        if let parameters = destination.parameters {
            if parameters.count > Self.maximumParameters {
                report(
                    pointer + "/parameters",
                    "must have at most \(Self.maximumParameters) entries, has \(parameters.count)"
                )
            }
            for key in parameters.keys.sorted() {
                let keyPointer = JSONPointer.appending(key, to: pointer + "/parameters")
                if key.count > Self.maximumStringLength {
                    report(keyPointer, "key must be at most \(Self.maximumStringLength) characters")
                }
                checkLength(parameters[key], at: keyPointer)
            }
        }
    }

    /// An absolute http(s) URL with a host, or `scheme:rest` for any other scheme; never whitespace.
    static func isValidDestinationURL(_ url: String) -> Bool {
        let hasBlank = url.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        guard !hasBlank, let colon = url.firstIndex(of: ":"), isValidScheme(url[..<colon]) else {
            return false
        }
        let rest = url[url.index(after: colon)...]
        guard !rest.isEmpty else {
            return false
        }
        let scheme = url[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return true
        }
        guard rest.hasPrefix("//"), let host = URLComponents(string: url)?.host else {
            return false
        }
        return !host.isEmpty
    }

    /// RFC 3986 scheme: a letter, then letters, digits, "+", "-" or ".".
    private static func isValidScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.utf8.first, first.isASCIILetter else {
            return false
        }
        return scheme.utf8.allSatisfy { byte in
            byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    // MARK: - Across tabs

    private mutating func checkUniqueIDs(_ entries: [Entry]) -> [String: Entry] {
        var firstByID: [String: Entry] = [:]
        for entry in entries where !isTainted(entry.pointer + "/id") {
            if let first = firstByID[entry.tab.id] {
                report(entry.pointer + "/id", "duplicate id \"\(entry.tab.id)\", first used at \(first.pointer)/id")
            } else {
                firstByID[entry.tab.id] = entry
            }
        }
        return firstByID
    }

    private mutating func checkReplaces(_ entries: [Entry], firstByID: [String: Entry]) {
        var replacedBy: [String: String] = [:]
        for entry in entries {
            guard let replaces = entry.tab.replaces, Tab.isValidID(replaces), replaces != entry.tab.id else {
                continue
            }
            let pointer = entry.pointer + "/replaces"
            if let target = firstByID[replaces], target.tab.deprecated == nil,
                !isTainted(target.pointer + "/deprecated")
            {
                report(pointer, "names tab \"\(replaces)\", which is not deprecated")
            }
            if let other = replacedBy[replaces] {
                report(pointer, "\"\(replaces)\" is already replaced by the tab at \(other)")
            } else {
                replacedBy[replaces] = entry.pointer
            }
        }
    }

    // MARK: - Templates of the tabs users open

    private mutating func checkTemplates(firstByID: [String: Entry]) {
        guard let templates = config.tabTemplates else { return }
        if templates.count > Self.maximumTemplates {
            report("/tabTemplates", "must have at most \(Self.maximumTemplates) templates, has \(templates.count)")
        }
        var firstTemplate: [String: String] = [:]
        for (index, template) in templates.enumerated() {
            let pointer = JSONPointer.appending(index, to: "/tabTemplates")
            checkTemplate(template, at: pointer)
            guard !isTainted(pointer + "/id"), Tab.isValidID(template.id) else { continue }
            if let tab = firstByID[template.id] {
                report(pointer + "/id", "duplicate id \"\(template.id)\", first used at \(tab.pointer)/id")
            } else if let first = firstTemplate[template.id] {
                report(pointer + "/id", "duplicate id \"\(template.id)\", first used at \(first)/id")
            } else {
                firstTemplate[template.id] = pointer
            }
        }
    }

    private mutating func checkTemplate(_ template: TabTemplate, at pointer: String) {
        if !isTainted(pointer + "/id"), !Tab.isValidID(template.id) {
            report(pointer + "/id", "must match ^[a-z0-9][a-z0-9._-]{0,63}$, found \"\(template.id)\"")
        }
        checkTitle(template.title, at: pointer + "/title")
        if let icon = template.icon {
            checkIcon(icon, at: pointer + "/icon")
        }
        checkDestination(template.destination, at: pointer + "/destination")
        if let maxOpen = template.maxOpen, !Self.maxOpenRange.contains(maxOpen) {
            report(pointer + "/maxOpen", "must be \(Self.describe(Self.maxOpenRange)), found \(maxOpen)")
        }
        guard let parameters = template.parameters else { return }
        if parameters.count > Self.maximumParameters {
            report(
                pointer + "/parameters", "must have at most \(Self.maximumParameters) names, has \(parameters.count)")
        }
        var seen: Set<String> = []
        for (index, name) in parameters.enumerated() {
            let namePointer = JSONPointer.appending(index, to: pointer + "/parameters")
            if isTainted(namePointer) { continue }
            if !TabTemplate.isValidParameterName(name) {
                report(namePointer, "must match ^[A-Za-z][A-Za-z0-9_]{0,31}$, found \"\(name)\"")
            } else if !seen.insert(name).inserted {
                report(namePointer, "duplicate parameter name \"\(name)\"")
            }
        }
    }

    // MARK: - Document fields

    private mutating func checkDocumentFields(firstByID: [String: Entry], idsComplete: Bool) {
        checkMaxVisibleTabs(config.maxVisibleTabs, at: "/maxVisibleTabs")
        if let initialTab = config.initialTab {
            checkTopLevelTab(
                initialTab, at: "/initialTab", firstByID: firstByID, idsComplete: idsComplete, mustBeSelectable: true)
        }
        if let defaultLocale = config.defaultLocale, !LocaleTag.isValid(defaultLocale) {
            report("/defaultLocale", "\"\(defaultLocale)\" is not a well-formed BCP 47 language tag")
        }
        if let appearance = config.appearance {
            checkAppearance(appearance, at: "/appearance")
        }
    }

    mutating func checkMaxVisibleTabs(_ maxVisibleTabs: Int?, at pointer: String) {
        if let maxVisibleTabs, !Self.maxVisibleTabsRange.contains(maxVisibleTabs) {
            report(pointer, "must be \(Self.describe(Self.maxVisibleTabsRange)), found \(maxVisibleTabs)")
        }
    }

    mutating func checkAppearance(_ appearance: Appearance, at pointer: String) {
        checkLength(appearance.backgroundImage, at: pointer + "/backgroundImage")
        checkColor(appearance.tintColor, at: pointer + "/tintColor")
        checkColor(appearance.selectedTintColor, at: pointer + "/selectedTintColor")
        checkColor(appearance.unselectedTintColor, at: pointer + "/unselectedTintColor")
    }

    /// `id` must name a top-level tab (when no tab has that id, only said when every id could be read, with a
    /// "did you mean"); one that `mustBeSelectable` (an initial tab) also enabled and not hard-deprecated.
    mutating func checkTopLevelTab(
        _ id: String, at pointer: String, firstByID: [String: Entry], idsComplete: Bool, mustBeSelectable: Bool
    ) {
        guard let entry = firstByID[id] else {
            if idsComplete {
                let topLevelIDs = Set(firstByID.values.filter { $0.depth == 0 }.map(\.tab.id))
                report(pointer, "names no top-level tab \"\(id)\"" + KeySuggestion.didYouMean(id, in: topLevelIDs))
            }
            return
        }
        if entry.depth > 0 {
            report(pointer, "names \"\(id)\", which is not a top-level tab")
        } else if !mustBeSelectable {
            return
        } else if entry.tab.enabled == false, !isTainted(entry.pointer + "/enabled") {
            report(pointer, "names \"\(id)\", which is not enabled")
        } else if entry.tab.deprecated == .hard {
            report(pointer, "names \"\(id)\", which is hard-deprecated and not shown")
        }
    }

    private mutating func checkColor(_ color: String?, at pointer: String) {
        guard let color else { return }
        let digits = color.utf8.dropFirst()
        let isHex = digits.allSatisfy { byte in
            byte.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        if !(color.hasPrefix("#") && (digits.count == 6 || digits.count == 8) && isHex) {
            report(pointer, "must be a colour #RRGGBB or #RRGGBBAA, found \"\(color)\"")
        }
    }

    mutating func checkLength(_ string: String?, at pointer: String) {
        if let string, string.count > Self.maximumStringLength {
            report(pointer, "must be at most \(Self.maximumStringLength) characters, has \(string.count)")
        }
    }

    /// A string whose length in characters must lie in `range`.
    mutating func checkLength(_ string: String?, in range: ClosedRange<Int>, at pointer: String) {
        if let string, !range.contains(string.count) {
            report(pointer, "must be \(Self.describe(range)) characters, has \(string.count)")
        }
    }

    // MARK: - Reporting

    static func describe(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }

    func isTainted(_ pointer: String) -> Bool {
        tainted.contains { JSONPointer.isWithin(pointer, $0) }
    }

    mutating func report(_ pointer: String, _ message: String) {
        if !isTainted(pointer) {
            problems.append(ValidationProblem(pointer: pointer, message: message))
        }
    }
}

extension TabBarConfig {
    /// Semantic validation of an already-typed document (docs/design/model.md, "The config document"). Empty = valid.
    public func validate() -> [ValidationProblem] {
        var validator = ConfigValidator(config: self)
        return validator.run()
    }
}

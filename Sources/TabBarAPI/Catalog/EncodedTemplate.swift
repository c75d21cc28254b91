import Foundation
import TabBarModel

/// The tabs of one template in one locale, encoded once around holes for what each open tab has of its own: its
/// name, its destination's parameters, its own title and its placement. Writing an open tab is then copying bytes,
/// byte for byte what `CanonicalJSON` gives for `TabBarConfig.resolvedTab(_:locale:)`; no dictionary is looked up
/// and nothing is cached per tab (`EncodedTabBar`).
///
/// The holes are found by encoding the tab with sentinel values and checked by encoding a probe tab both ways: a
/// template whose encoding the sentinels cannot split, and a tab with a parameter name that is not ASCII (the
/// encoder's key order is only matched for ASCII), take `CanonicalJSON` instead (``append(_:inBar:to:)`` false).
struct EncodedTemplate: Sendable {
    /// The template's id.
    let id: String
    /// By ``variant(of:)``: with a title of the tab's own or the template's localized one, with parameters or
    /// without any (neither the template's nor the tab's); nil when the sentinels could not split the encoding or a
    /// probe tab came out different.
    private var skeletons: [Skeleton?]
    /// The template destination's parameters, sorted by key as the encoder sorts them, each encoded; nil when the
    /// template's destination has none.
    private let parameters: [(key: String, encoded: [UInt8])]?
    /// The template destination's parameters as the object a tab without parameters of its own has.
    private let parametersObject: [UInt8]
    /// The placement hole's bytes for the bar and for "More".
    private let bar: [UInt8]
    private let more: [UInt8]

    /// What a hole stands for.
    private enum Hole {
        case name, parameters, title, placement
    }

    /// An encoded tab without what goes in its holes: `bytes` up to `cuts[0].at`, `cuts[0].hole`, the bytes up to
    /// `cuts[1].at`, … then the bytes from the last cut to the end. One array, so that writing it retains nothing.
    private struct Skeleton {
        var bytes: [UInt8] = []
        var cuts: [(at: Int, hole: Hole)] = []
    }

    private static let nameSentinel = "\u{1}n\u{2}"
    private static let titleSentinel = "\u{1}t\u{2}"
    private static let parameterSentinel = "\u{1}p\u{2}"

    /// Encodes `template` of `config` in `locale`.
    init(_ template: TabTemplate, of config: TabBarConfig, locale: String) {
        id = template.id
        let templateParameters = template.destination.parameters
        parameters = templateParameters.map { parameters in
            parameters.sorted { Self.precedes($0.key, $1.key) }.map { key, value in
                var member: [UInt8] = []
                Self.appendMember(key, value, to: &member)
                return (key, member)
            }
        }
        parametersObject = Self.object(of: parameters ?? [])
        var placements: ([UInt8], [UInt8]) = ([], [])
        skeletons = (0..<4).map { variant in
            let withParameters = variant < 2
            guard withParameters || templateParameters == nil else { return nil }
            let title = variant.isMultiple(of: 2) ? Self.titleSentinel : nil
            var tab = config.resolvedTab(
                DynamicTab(template: template.id, name: Self.nameSentinel, title: title), locale: locale)
            tab.destination.parameters = withParameters ? [Self.parameterSentinel: Self.parameterSentinel] : nil
            guard let (skeleton, bar, more) = Self.skeleton(of: tab) else { return nil }
            placements = (bar, more)
            return skeleton
        }
        (bar, more) = placements
        // A probe of each variant, with strings the encoder escapes and a parameter of the template's overridden.
        let names = (template.parameters ?? []) + (templateParameters.map { Array($0.keys.sorted().prefix(1)) } ?? [])
        let probeParameters = Dictionary(names.map { ($0, "probe \"\($0)\" é") }) { first, _ in first }
        for title in ["Probe \"title\" é", nil] {
            for parameters in [probeParameters, [:]] {
                let probe = DynamicTab(template: template.id, name: "probe-1", parameters: parameters, title: title)
                let variant = variant(of: probe)
                for inBar in [true, false] {
                    var resolved = config.resolvedTab(probe, locale: locale)
                    resolved.placement = inBar ? .bar : .more
                    var written: [UInt8] = []
                    if append(probe, inBar: inBar, to: &written), written != Array(CanonicalJSON.encode(resolved)) {
                        skeletons[variant] = nil
                    }
                }
            }
        }
    }

    /// Bytes to reserve for one open tab: the longest skeleton and room for what goes in its holes.
    var capacity: Int {
        (skeletons.map { $0?.bytes.count ?? 0 }.max() ?? 0) + 160
    }

    /// Which of `skeletons` writes `tab`.
    private func variant(of tab: DynamicTab) -> Int {
        (tab.title == nil ? 1 : 0) + (parameters == nil && tab.parameters.isEmpty ? 2 : 0)
    }

    /// Appends `tab` (of this template) with placement "bar" or "More" as `CanonicalJSON` encodes its resolved tab;
    /// false, with nothing appended, when it must be encoded that way instead.
    func append(_ tab: DynamicTab, inBar: Bool, to body: inout [UInt8]) -> Bool {
        guard let skeleton = skeletons[variant(of: tab)], tab.name.utf8.allSatisfy(DirectJSON.isPlain),
            tab.parameters.isEmpty || tab.parameters.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } })
        else { return false }
        skeleton.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for (at, hole) in skeleton.cuts {
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<at]))
                start = at
                switch hole {
                case .name: body.append(contentsOf: tab.name.utf8)
                case .parameters: appendParameters(of: tab, to: &body)
                case .title: DirectJSON.appendCanonical(tab.title ?? "", to: &body)
                case .placement: body.append(contentsOf: inBar ? bar : more)
                }
            }
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        return true
    }

    /// Appends the destination's parameters: the template's with the tab's added (theirs win), sorted by key.
    private func appendParameters(of tab: DynamicTab, to body: inout [UInt8]) {
        guard !tab.parameters.isEmpty else {
            body.append(contentsOf: parametersObject)
            return
        }
        let inherited = parameters ?? []
        if inherited.isEmpty, tab.parameters.count == 1, let (key, value) = tab.parameters.first {
            body.append(UInt8(ascii: "{"))
            Self.appendMember(key, value, to: &body)
            body.append(UInt8(ascii: "}"))
            return
        }
        let own = tab.parameters.sorted { Self.precedes($0.key, $1.key) }
        body.append(UInt8(ascii: "{"))
        var first = true
        func separate() {
            if !first {
                body.append(UInt8(ascii: ","))
            }
            first = false
        }
        var next = inherited.startIndex
        for (key, value) in own {
            while next < inherited.endIndex, Self.precedes(inherited[next].key, key) {
                separate()
                body.append(contentsOf: inherited[next].encoded)
                next += 1
            }
            if next < inherited.endIndex, inherited[next].key == key {
                next += 1
            }
            separate()
            Self.appendMember(key, value, to: &body)
        }
        for member in inherited[next...] {
            separate()
            body.append(contentsOf: member.encoded)
        }
        body.append(UInt8(ascii: "}"))
    }

    /// Whether parameter `key` comes before `other` in an encoded object: the encoder's order for ASCII keys, the
    /// only ones written here.
    private static func precedes(_ key: String, _ other: String) -> Bool {
        key.utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// Appends `"key":"value"` as `CanonicalJSON` writes a member.
    private static func appendMember(_ key: String, _ value: String, to body: inout [UInt8]) {
        DirectJSON.appendCanonical(key, to: &body)
        body.append(UInt8(ascii: ":"))
        DirectJSON.appendCanonical(value, to: &body)
    }

    /// `{…}` of encoded members.
    private static func object(of members: [(key: String, encoded: [UInt8])]) -> [UInt8] {
        var object: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 {
                object.append(UInt8(ascii: ","))
            }
            object.append(contentsOf: member.encoded)
        }
        object.append(UInt8(ascii: "}"))
        return object
    }

    /// `tab` (holding the sentinels) encoded with placement "bar" and cut at its holes, with the placement hole's
    /// bytes for the bar and "More"; nil when a sentinel is not where it should be.
    private static func skeleton(of tab: ResolvedTab) -> (Skeleton, bar: [UInt8], more: [UInt8])? {
        var inBar = tab
        inBar.placement = .bar
        var inMore = tab
        inMore.placement = .more
        let encodedBar = Array(CanonicalJSON.encode(inBar))
        let encodedMore = Array(CanonicalJSON.encode(inMore))
        // The placement is where the two encodings differ.
        let prefix = zip(encodedBar, encodedMore).prefix { $0 == $1 }.count
        let suffix = zip(encodedBar[prefix...].reversed(), encodedMore[prefix...].reversed()).prefix { $0 == $1 }.count
        let bar = Array(encodedBar[prefix..<(encodedBar.count - suffix)])
        let more = Array(encodedMore[prefix..<(encodedMore.count - suffix)])
        var patterns: [([UInt8], Hole)] = [
            (Array(CanonicalJSON.encode(nameSentinel).dropFirst().dropLast()), .name),
            (Array(CanonicalJSON.encode([parameterSentinel: parameterSentinel])), .parameters),
        ]
        if tab.title == titleSentinel {
            patterns.append((Array(CanonicalJSON.encode(titleSentinel)), .title))
        }
        var skeleton = Skeleton()
        var position = 0
        while position < encodedBar.count {
            if position == prefix {
                skeleton.cuts.append((skeleton.bytes.count, .placement))
                position += bar.count
            } else if let (pattern, hole) = patterns.first(where: { encodedBar[position...].starts(with: $0.0) }) {
                skeleton.cuts.append((skeleton.bytes.count, hole))
                position += pattern.count
            } else {
                skeleton.bytes.append(encodedBar[position])
                position += 1
            }
        }
        let expected = 2 + 1 + (tab.destination.parameters == nil ? 0 : 1) + (tab.title == titleSentinel ? 1 : 0)
        guard skeleton.cuts.count == expected, skeleton.cuts.count(where: { $0.hole == .name }) == 2 else { return nil }
        return (skeleton, bar, more)
    }
}

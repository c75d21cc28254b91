/// Walks two canonical config documents and collects a ``ConfigDiff``'s parts, by the rules its doc comment states.
struct ConfigDiffer {
    /// One tab of a document: where it is and under which tab.
    private struct Place {
        var id: String
        var value: JSONValue
        var pointer: String
        /// The parent tab's id; nil at the top level.
        var parent: String?
        var index: Int
    }

    private let before: JSONValue
    private let after: JSONValue
    /// Every tab of each document in document order (a tab before its children).
    private let beforePlaces: [Place]
    private let afterPlaces: [Place]
    /// Each id's first tab in document order; a repeated id's later tabs are matched with nothing.
    private let beforeTabs: [String: Place]
    private let afterTabs: [String: Place]
    /// Ids of the tabs in both documents that changed place.
    private var moved: Set<String> = []

    private(set) var tabsAdded: [String] = []
    private(set) var tabsRemoved: [String] = []
    private(set) var tabsChanged: [String] = []
    private(set) var changes: [ConfigDiff.Change] = []

    init(before: JSONValue, after: JSONValue) {
        self.before = before
        self.after = after
        beforePlaces = Self.places(in: before)
        afterPlaces = Self.places(in: after)
        beforeTabs = Self.firstPlaces(beforePlaces)
        afterTabs = Self.firstPlaces(afterPlaces)
    }

    /// Fills the parts; does nothing when the documents are equal.
    mutating func run() {
        guard before != after else { return }
        moved = movedTabs()
        tabsRemoved = beforePlaces.filter { !isMatched($0, in: beforeTabs) }.map(\.id)
        tabsAdded = afterPlaces.filter { !isMatched($0, in: afterTabs) }.map(\.id)
        tabsChanged = afterPlaces.filter { isMatched($0, in: afterTabs) && ownMembersOrPlaceDiffer($0) }.map(\.id)
        compareObjects(before, after, beforePointer: "", afterPointer: "", tabsKey: "tabs")
    }

    // MARK: - Comparing values

    /// Compares two values that may be absent.
    private mutating func compare(_ old: JSONValue?, _ new: JSONValue?, beforePointer: String, afterPointer: String) {
        switch (old, new) {
        case (nil, nil):
            return
        case (nil, let new?):
            changes.append(.init(kind: .added, pointer: afterPointer, after: new))
        case (let old?, nil):
            changes.append(.init(kind: .removed, pointer: beforePointer, before: old))
        case (let old?, let new?):
            compareValues(old, new, beforePointer: beforePointer, afterPointer: afterPointer)
        }
    }

    /// Compares two present values: objects by member, arrays of one length by index, anything else whole.
    private mutating func compareValues(
        _ old: JSONValue, _ new: JSONValue, beforePointer: String, afterPointer: String
    ) {
        guard old != new else { return }
        switch (old, new) {
        case (.object, .object):
            compareObjects(old, new, beforePointer: beforePointer, afterPointer: afterPointer, tabsKey: nil)
        case (.array(let oldElements), .array(let newElements)) where oldElements.count == newElements.count:
            for index in oldElements.indices {
                compare(
                    oldElements[index], newElements[index],
                    beforePointer: JSONPointer.appending(index, to: beforePointer),
                    afterPointer: JSONPointer.appending(index, to: afterPointer))
            }
        default:
            changes.append(.init(kind: .changed, pointer: afterPointer, before: old, after: new))
        }
    }

    /// Compares two objects member by member in key order; the member named `tabsKey` is an array of tabs.
    private mutating func compareObjects(
        _ old: JSONValue, _ new: JSONValue, beforePointer: String, afterPointer: String, tabsKey: String?
    ) {
        let oldMembers = Self.members(old)
        let newMembers = Self.members(new)
        for key in Set(oldMembers.keys).union(newMembers.keys).sorted() {
            let memberBefore = JSONPointer.appending(key, to: beforePointer)
            let memberAfter = JSONPointer.appending(key, to: afterPointer)
            if key == tabsKey {
                compareTabs(oldMembers[key], newMembers[key], beforePointer: memberBefore, afterPointer: memberAfter)
            } else {
                compare(oldMembers[key], newMembers[key], beforePointer: memberBefore, afterPointer: memberAfter)
            }
        }
    }

    /// Compares two arrays of tabs by id. A missing array counts as an empty one, unless the other is empty too (or
    /// either is not an array): then it is a change of the member itself.
    private mutating func compareTabs(
        _ old: JSONValue?, _ new: JSONValue?, beforePointer: String, afterPointer: String
    ) {
        guard old != new else { return }
        let oldTabs = old == nil ? [] : old.flatMap(Self.elements)
        let newTabs = new == nil ? [] : new.flatMap(Self.elements)
        guard let oldTabs, let newTabs, !(oldTabs.isEmpty && newTabs.isEmpty) else {
            compare(old, new, beforePointer: beforePointer, afterPointer: afterPointer)
            return
        }
        for (index, tab) in oldTabs.enumerated() {
            let pointer = JSONPointer.appending(index, to: beforePointer)
            if !isMatched(id: Self.id(of: tab), pointer: pointer, in: beforeTabs) {
                changes.append(.init(kind: .removed, pointer: pointer, before: tab))
            }
        }
        for (index, tab) in newTabs.enumerated() {
            let pointer = JSONPointer.appending(index, to: afterPointer)
            let id = Self.id(of: tab)
            guard isMatched(id: id, pointer: pointer, in: afterTabs), let id, let live = beforeTabs[id] else {
                changes.append(.init(kind: .added, pointer: pointer, after: tab))
                compareTabsMovedInto(tab, afterPointer: pointer)
                continue
            }
            if moved.contains(id) {
                changes.append(.init(kind: .moved, pointer: pointer, from: live.pointer))
            }
            compareTab(live, tab, afterPointer: pointer)
        }
    }

    /// Compares a tab in both documents member by member, its `children` by id.
    private mutating func compareTab(_ live: Place, _ tab: JSONValue, afterPointer: String) {
        compareObjects(live.value, tab, beforePointer: live.pointer, afterPointer: afterPointer, tabsKey: "children")
    }

    /// Below an added tab: the tabs that were elsewhere in the live document, each moved and compared.
    private mutating func compareTabsMovedInto(_ tab: JSONValue, afterPointer: String) {
        let children = Self.members(tab)["children"].flatMap(Self.elements) ?? []
        for (index, child) in children.enumerated() {
            let pointer = JSONPointer.appending(index, to: JSONPointer.appending("children", to: afterPointer))
            let id = Self.id(of: child)
            if isMatched(id: id, pointer: pointer, in: afterTabs), let id, let live = beforeTabs[id] {
                if moved.contains(id) {
                    changes.append(.init(kind: .moved, pointer: pointer, from: live.pointer))
                }
                compareTab(live, child, afterPointer: pointer)
            } else {
                compareTabsMovedInto(child, afterPointer: pointer)
            }
        }
    }

    // MARK: - Matching tabs

    /// The tabs in both documents that changed place: those under another parent, and among the siblings that kept
    /// their parent, those outside the longest run that kept its order.
    private func movedTabs() -> Set<String> {
        var result: Set<String> = []
        var siblings: [String?: [(id: String, liveIndex: Int)]] = [:]
        var parents: [String?] = []
        for place in afterPlaces where isMatched(place, in: afterTabs) {
            guard let live = beforeTabs[place.id] else { continue }
            guard live.parent == place.parent else {
                result.insert(place.id)
                continue
            }
            if siblings[place.parent] == nil { parents.append(place.parent) }
            siblings[place.parent, default: []].append((place.id, live.index))
        }
        for parent in parents {
            let group = siblings[parent] ?? []
            let kept = Set(Self.longestIncreasingRun(group.map(\.liveIndex)))
            for (position, entry) in group.enumerated() where !kept.contains(position) {
                result.insert(entry.id)
            }
        }
        return result
    }

    /// Whether a matched tab's members other than `children` differ, or it moved.
    private func ownMembersOrPlaceDiffer(_ place: Place) -> Bool {
        guard let live = beforeTabs[place.id] else { return false }
        if moved.contains(place.id) { return true }
        return Self.members(live.value).filter { $0.key != "children" }
            != Self.members(place.value).filter { $0.key != "children" }
    }

    private func isMatched(_ place: Place, in first: [String: Place]) -> Bool {
        isMatched(id: place.id, pointer: place.pointer, in: first)
    }

    /// Whether the tab at `pointer` is its id's first tab in its document and that id is in both documents.
    private func isMatched(id: String?, pointer: String, in first: [String: Place]) -> Bool {
        guard let id, first[id]?.pointer == pointer else { return false }
        return beforeTabs[id] != nil && afterTabs[id] != nil
    }

    /// Positions (ascending) of a longest strictly increasing subsequence of `values`; among equally long ones, the
    /// one that ends first.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        var length = [Int](repeating: 1, count: values.count)
        var previous = [Int?](repeating: nil, count: values.count)
        for index in values.indices {
            for earlier in 0..<index where values[earlier] < values[index] && length[earlier] + 1 > length[index] {
                length[index] = length[earlier] + 1
                previous[index] = earlier
            }
        }
        let longest = length.max() ?? 0
        var position = length.firstIndex(of: longest)
        var run: [Int] = []
        while let current = position {
            run.append(current)
            position = previous[current]
        }
        return run.reversed()
    }

    // MARK: - Reading the documents

    /// Every tab of a document in document order.
    private static func places(in document: JSONValue) -> [Place] {
        var result: [Place] = []
        collect(members(document)["tabs"], pointer: "/tabs", parent: nil, into: &result)
        return result
    }

    private static func collect(_ array: JSONValue?, pointer: String, parent: String?, into result: inout [Place]) {
        for (index, tab) in (array.flatMap(elements) ?? []).enumerated() {
            guard let id = id(of: tab) else { continue }
            let tabPointer = JSONPointer.appending(index, to: pointer)
            result.append(Place(id: id, value: tab, pointer: tabPointer, parent: parent, index: index))
            collect(
                members(tab)["children"], pointer: JSONPointer.appending("children", to: tabPointer), parent: id,
                into: &result)
        }
    }

    private static func firstPlaces(_ places: [Place]) -> [String: Place] {
        var first: [String: Place] = [:]
        for place in places where first[place.id] == nil {
            first[place.id] = place
        }
        return first
    }

    private static func members(_ value: JSONValue) -> [String: JSONValue] {
        guard case .object(let members) = value else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    private static func elements(_ value: JSONValue) -> [JSONValue]? {
        guard case .array(let elements) = value else { return nil }
        return elements
    }

    private static func id(of tab: JSONValue) -> String? {
        guard case .string(let id)? = members(tab)["id"] else { return nil }
        return id
    }
}

import Foundation

/// What publishing a config document would change against the live one (docs/design/model.md, "Comparing
/// documents"): the tabs added, removed and changed, and every change as a JSON pointer with its values.
///
/// Both documents are compared in their canonical JSON (`CanonicalJSON`, keys sorted), so the diff is empty exactly
/// when that JSON is equal. Objects are compared member by member down to the leaves. Arrays of tabs (`/tabs` and
/// every `children`) are matched by tab id across the whole hierarchy, not by index:
///
/// - a tab only in the proposed document is one `added` change holding the whole tab, one only in the live
///   document one `removed` change;
/// - a tab in both is compared member by member, its changes pointing at its place in the proposed document;
/// - a tab that changed place is one `moved` change (`from` its live place). Among siblings that kept their parent,
///   the tabs in the longest run that kept their relative order stay put; only the others moved, so moving one tab
///   is one change and a tab inserted before others moves none of them. A tab under another parent moved.
///
/// Other arrays (a variation's `order`, a group, an experiment's `weights`) are compared index by index when both
/// have the same length, and else replaced whole (one `changed` change). A change's `pointer` locates `after` in
/// the proposed document, or, for a removal, `before` in the live one. A live document that is absent (a new
/// client) counts as an empty object: every member is added, every tab one by one.
public struct ConfigDiff: Codable, Sendable, Hashable {
    /// Ids of the tabs (top level and children) only in the proposed document, in its order.
    public var tabsAdded: [String]
    /// Ids of the tabs only in the live document, in its order.
    public var tabsRemoved: [String]
    /// Ids of the tabs in both whose own members (not counting `children`) or place differ, in the proposed
    /// document's order.
    public var tabsChanged: [String]
    /// Every change, in the proposed document's order (members by key, as canonical JSON writes them); within an
    /// array of tabs the removals come first.
    public var changes: [Change]

    /// Compares `proposed` with `live` (`nil`: no live document).
    public init(live: TabBarConfig?, proposed: TabBarConfig) {
        let after = Self.canonicalValue(proposed)
        let before = live.map(Self.canonicalValue) ?? .object([])
        var differ = ConfigDiffer(before: before, after: after)
        differ.run()
        tabsAdded = differ.tabsAdded
        tabsRemoved = differ.tabsRemoved
        tabsChanged = differ.tabsChanged
        changes = differ.changes
    }

    /// Creates a diff from its parts (as decoded from an answer).
    public init(tabsAdded: [String], tabsRemoved: [String], tabsChanged: [String], changes: [Change]) {
        self.tabsAdded = tabsAdded
        self.tabsRemoved = tabsRemoved
        self.tabsChanged = tabsChanged
        self.changes = changes
    }

    /// Whether the documents are equal: publishing would change nothing but the version number.
    public var isEmpty: Bool {
        changes.isEmpty
    }

    /// The tab summary as command-line tools print it ("tabs added: shop; changed: home, search"), or `nil` when
    /// no tab was added, removed or changed.
    public var tabSummary: String? {
        let parts = [("added", tabsAdded), ("removed", tabsRemoved), ("changed", tabsChanged)]
            .filter { !$0.1.isEmpty }
            .map { "\($0.0): \($0.1.joined(separator: ", "))" }
        return parts.isEmpty ? nil : "tabs " + parts.joined(separator: "; ")
    }

    /// The config's canonical JSON as a tree (members sorted by key).
    private static func canonicalValue(_ config: TabBarConfig) -> JSONValue {
        do {
            return try JSONParser.parse(config.encoded())
        } catch {
            preconditionFailure("the canonical JSON of a config always parses: \(error)")
        }
    }
}

/// A set of locale tags prepared for lookups that ignore case, as ``LocaleTag`` matching defines them: a tag
/// matches the smallest (in sorted order) of the tags equal to it ignoring case.
public struct LocaleIndex: Sendable {
    /// Every tag as spelled, to the tag it matches (the smallest of its case variants).
    private let exact: [String: String]
    /// Every lowercased tag, to the tag it matches.
    private let lowercased: [String: String]

    /// Indexes `tags`.
    public init(_ tags: some Sequence<String>) {
        var lowercased: [String: String] = [:]
        for tag in tags {
            let key = tag.lowercased()
            if let known = lowercased[key], known <= tag { continue }
            lowercased[key] = tag
        }
        var exact: [String: String] = [:]
        for tag in tags {
            exact[tag] = lowercased[tag.lowercased()]
        }
        self.exact = exact
        self.lowercased = lowercased
    }

    /// The tag `tag` matches ignoring case, or nil.
    public func match(_ tag: String) -> String? {
        exact[tag] ?? lowercased[tag.lowercased()]
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: a header value without HTTP's optional whitespace.
    public var withoutOptionalWhitespace: SubSequence {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isOWS($0) }), let last = lastIndex(where: { !isOWS($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

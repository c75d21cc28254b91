/// Why an `ApplicationHierarchy.plist` cannot be imported as a config document.
///
/// Pointers of `invalid` problems come in two kinds, told apart by their first token:
/// - pointers into the plist's top-level array ("/2/RootViewController", "/0/TabBarBadge", "/4" for an entry that is
///   not a dictionary), for missing keys, wrong value types, empty strings and unknown keys;
/// - pointers into the generated document ("/tabs", "/tabs/0/title/default"), for the normal config validation of
///   the result. Their message starts with "in the generated document (from …):" naming the plist key or entry they
///   come from, e.g. "in the generated document (from /0/TabBarTitle): must be 1…64 characters, has 70".
///
/// Plist problems come first, in entry order, then the generated document's.
public enum PlistImportError: Error, Sendable, Equatable {
    /// Not an XML or binary property list, or its top level is not an array (HTTP 400); the message says why.
    case malformed(String)
    /// A property list whose entries are wrong, or whose generated document is invalid (HTTP 422): every problem.
    case invalid([ValidationProblem])
}

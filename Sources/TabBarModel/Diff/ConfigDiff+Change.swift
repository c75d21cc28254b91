import Foundation

extension ConfigDiff {
    /// One change between the live and the proposed document (see ``ConfigDiff`` for where pointers point).
    ///
    /// As JSON: `{"kind", "pointer", "from"?, "before"?, "after"?}`; `before` and `after` are the JSON values
    /// themselves, and a member that is absent means "no value" (an added value has no `before`).
    public struct Change: Codable, Sendable, Hashable {
        /// What happened at `pointer`.
        public enum Kind: String, Codable, Sendable {
            /// A value only in the proposed document (`after`).
            case added
            /// A value only in the live document (`before`).
            case removed
            /// A value in both that differs (`before`, `after`).
            case changed
            /// A tab that changed place (`from` its live place); its members are compared on their own.
            case moved
        }

        /// What happened.
        public var kind: Kind
        /// RFC 6901 pointer: into the proposed document, or into the live one for a removal.
        public var pointer: String
        /// A moved tab's place in the live document.
        public var from: String?
        /// The live value.
        var before: JSONValue?
        /// The proposed value.
        var after: JSONValue?

        init(kind: Kind, pointer: String, from: String? = nil, before: JSONValue? = nil, after: JSONValue? = nil) {
            self.kind = kind
            self.pointer = pointer
            self.from = from
            self.before = before
            self.after = after
        }

        /// The live value as compact canonical JSON, if there is one.
        public var beforeJSON: String? {
            before.map(Self.text)
        }

        /// The proposed value as compact canonical JSON, if there is one.
        public var afterJSON: String? {
            after.map(Self.text)
        }

        /// The change as command-line tools print it: `POINTER: BEFORE → AFTER`, `(none)` for a missing value, or
        /// `POINTER: moved from FROM`.
        public var line: String {
            let place = pointer.isEmpty ? "/" : pointer
            if kind == .moved {
                return "\(place): moved from \(from ?? "?")"
            }
            return "\(place): \(beforeJSON ?? "(none)") → \(afterJSON ?? "(none)")"
        }

        private static func text(_ value: JSONValue) -> String {
            String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
        }

        private enum CodingKeys: String, CodingKey {
            case kind, pointer, from, before, after
        }

        /// Decodes a change; a `before` or `after` of `null` is the value null, an absent one no value.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(Kind.self, forKey: .kind)
            pointer = try container.decode(String.self, forKey: .pointer)
            from = try container.decodeIfPresent(String.self, forKey: .from)
            before = try Self.value(container, .before)
            after = try Self.value(container, .after)
        }

        private static func value(
            _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
        ) throws -> JSONValue? {
            guard container.contains(key) else { return nil }
            return try container.decodeNil(forKey: key) ? .null : container.decode(JSONValue.self, forKey: key)
        }

        /// Encodes a change, leaving out the members that have no value.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(pointer, forKey: .pointer)
            try container.encodeIfPresent(from, forKey: .from)
            try container.encodeIfPresent(before, forKey: .before)
            try container.encodeIfPresent(after, forKey: .after)
        }
    }
}

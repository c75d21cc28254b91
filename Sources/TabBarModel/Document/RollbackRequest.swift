import Foundation

/// Body of POST rollback: `{"version": n, "note": "…"}` (`note` optional).
public struct RollbackRequest: Sendable, Equatable {
    /// Longest note accepted.
    public static let maximumNoteLength = 256

    /// The kept version to publish a copy of.
    public var version: Int
    /// The note of the new version; nil for the default one.
    public var note: String?

    /// Creates a request.
    public init(version: Int, note: String? = nil) {
        self.version = version
        self.note = note
    }
}

extension RollbackRequest {
    private static let keys: Set<String> = ["version", "note"]

    /// Strict decode: an object with `version` (a positive integer) and optionally `note` (a string of at most 256
    /// characters, null = none); unknown fields and duplicate keys are problems with pointers.
    public static func decode(json: Data) -> Result<RollbackRequest, ConfigDecodingError> {
        JSONReader.read(json: json, read, validate: validate)
    }

    private static func read(_ reader: inout JSONReader, _ root: JSONValue) -> RollbackRequest? {
        guard case .object = root else {
            reader.report("", "must be an object")
            return nil
        }
        guard let object = reader.object(root, at: "", allowedKeys: nil) else { return nil }
        for key in object.members.keys.sorted() where !keys.contains(key) {
            reader.report(object.pointer(key), "unknown field")
        }
        guard let request = shape(object) else {
            reader.report("", "must hold \"version\" (a positive integer) and optionally \"note\" (a string)")
            return nil
        }
        return request
    }

    /// The request when `version` is an integer and `note` absent, null or a string; nil for any other shape.
    private static func shape(_ object: JSONObject) -> RollbackRequest? {
        guard let version = object["version"]?.integerValue else { return nil }
        switch object["note"] {
        case nil: return RollbackRequest(version: version)
        case .string(let note): return RollbackRequest(version: version, note: note)
        default: return nil
        }
    }

    private static func validate(_ request: RollbackRequest, tainted: [String]) -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        if request.version < 1 {
            problems.append(ValidationProblem(pointer: "/version", message: "must be a positive integer"))
        }
        if let note = request.note, note.count > maximumNoteLength {
            problems.append(ValidationProblem(pointer: "/note", message: "has at most \(maximumNoteLength) characters"))
        }
        return problems
    }
}

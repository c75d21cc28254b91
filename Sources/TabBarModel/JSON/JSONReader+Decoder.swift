import Foundation

/// The one way into the model from JSON: the strict reader, then the rules. `TabBarConfig.decode(json:)` and every
/// model type's `init(from:)` go through here, so a `JSONDecoder` gets the same checks as a request body.
extension JSONReader {
    /// Parses `json` strictly, then reads and checks it as `read(_:_:validate:)` does.
    static func read<Value>(
        json: Data,
        _ read: (inout JSONReader, JSONValue) -> Value?,
        validate: (Value, [String]) -> [ValidationProblem]
    ) -> Result<Value, ConfigDecodingError> {
        do {
            return Self.read(try JSONParser.parse(json), read, validate: validate)
        } catch {
            return .failure(.malformedJSON(error.description))
        }
    }

    /// Reads `value` with `read`; when that gives a value, checks it with `validate` (given the tainted pointers).
    /// The value, or every problem with its pointer.
    static func read<Value>(
        _ value: JSONValue,
        _ read: (inout JSONReader, JSONValue) -> Value?,
        validate: (Value, [String]) -> [ValidationProblem]
    ) -> Result<Value, ConfigDecodingError> {
        var reader = JSONReader()
        let result = read(&reader, value)
        var problems = reader.problems
        if let result {
            problems += validate(result, reader.tainted)
        }
        guard problems.isEmpty, let result else {
            return .failure(.invalid(problems))
        }
        return .success(result)
    }

    /// `read` over the JSON a `Decoder` holds; throws `ConfigDecodingError.invalid` with every problem, its pointer
    /// starting at the decoder's coding path.
    static func decode<Value>(
        _ decoder: any Decoder,
        _ read: (inout JSONReader, JSONValue) -> Value?,
        validate: (Value, [String]) -> [ValidationProblem]
    ) throws -> Value {
        switch Self.read(try JSONValue(from: decoder), read, validate: validate) {
        case .success(let value):
            return value
        case .failure(let error):
            guard case .invalid(let problems) = error else { throw error }
            let base = JSONPointer.pointer(to: decoder.codingPath)
            throw ConfigDecodingError.invalid(
                problems.map { ValidationProblem(pointer: base + $0.pointer, message: $0.message) })
        }
    }

    /// `decode(_:_:validate:)` of one part of a document, checked on its own (`ConfigValidator.run(_:)`): what the
    /// model types' `init(from:)` do.
    static func decodePart<Value>(
        _ decoder: any Decoder,
        _ read: (inout JSONReader, JSONValue) -> Value?,
        as part: (Value) -> ConfigValidator.Part
    ) throws -> Value {
        try decode(decoder, read) { value, tainted in
            var validator = ConfigValidator(tainted: tainted)
            return validator.run(part(value))
        }
    }

    /// A request body (a tab order, a tab to open) read strictly: `malformedJSON` when it does not parse, else what
    /// `read` makes of it, or `invalid` with every problem the reader reported.
    static func readBody<Value>(
        json: Data, replacingInvalidUTF8: Bool = false, _ read: (inout JSONReader, JSONValue) -> Value
    ) -> Result<Value, TabOrderDecodingError> {
        let root: JSONValue
        do {
            root = try JSONParser.parse(json, replacingInvalidUTF8: replacingInvalidUTF8)
        } catch {
            return .failure(.malformedJSON(error.description))
        }
        var reader = JSONReader()
        let value = read(&reader, root)
        guard reader.problems.isEmpty else {
            return .failure(.invalid(reader.problems))
        }
        return .success(value)
    }
}

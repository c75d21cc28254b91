/// A parsed JSON value that keeps object members in document order, duplicates included.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The kind of value, as used in problem messages ("found a string").
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as an integer: an integer, or an integral number such as `5.0` within ±2⁶²; nil for anything else.
    var integerValue: Int? {
        switch self {
        case .integer(let integer): integer
        case .double(let double) where double.rounded() == double && abs(double) < 0x1p62: Int(double)
        default: nil
        }
    }
}

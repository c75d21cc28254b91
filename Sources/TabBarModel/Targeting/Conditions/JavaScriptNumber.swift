import Foundation

/// JavaScript's conversions between numbers and strings (ECMA-262 `Number::toString` and `StringToNumber`), which
/// GrowthBook's condition semantics rely on.
enum JavaScriptNumber {
    /// The string JavaScript gives a number: `1` for 1.0, `1e+21`, `1e-7`, `0.000001`, `NaN`, `-Infinity`.
    static func string(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number == 0 { return "0" }
        if number < 0 { return "-" + string(-number) }
        if number.isInfinite { return "Infinity" }
        let (digits, pointPosition) = shortestDigits(number)
        let count = digits.count
        let exponent = pointPosition
        if count <= exponent && exponent <= 21 {
            return digits + String(repeating: "0", count: exponent - count)
        }
        if 0 < exponent && exponent <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: exponent)
            return digits[..<split] + "." + digits[split...]
        }
        if -6 < exponent && exponent <= 0 {
            return "0." + String(repeating: "0", count: -exponent) + digits
        }
        let power = exponent - 1
        let sign = power < 0 ? "-" : "+"
        let mantissa = count == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
        return mantissa + "e" + sign + String(abs(power))
    }

    /// The shortest round-trip decimal digits of a finite positive number (no leading or trailing zeros) and `n`
    /// such that the number is `0.digits × 10ⁿ`.
    private static func shortestDigits(_ number: Double) -> (String, Int) {
        let text = "\(number)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts.first.map(String.init) ?? text
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = pieces.first.map(String.init) ?? ""
        let fraction = pieces.count > 1 ? String(pieces[1]) : ""
        var digits = Substring(integerPart + fraction)
        let leadingZeros = digits.prefix { $0 == "0" }.count
        digits = digits.dropFirst(leadingZeros)
        while digits.last == "0" { digits = digits.dropLast() }
        return (String(digits), integerPart.count - leadingZeros + exponent)
    }

    /// The number JavaScript reads from a string (`Number(text)`): surrounding white space ignored, empty is 0,
    /// decimal literals, `Infinity`, unsigned `0x`/`0o`/`0b` integers; anything else is NaN.
    static func parse(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: whitespace)
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let scalars = Array(trimmed.unicodeScalars)
        if scalars.count > 2, scalars[0] == "0" {
            let radix: Int? = switch scalars[1] {
            case "x", "X": 16
            case "o", "O": 8
            case "b", "B": 2
            default: nil
            }
            if let radix { return parseInteger(scalars.dropFirst(2), radix: radix) }
        }
        guard isDecimalLiteral(scalars), let value = Double(trimmed) else { return .nan }
        return value
    }

    private static let whitespace = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))

    private static func parseInteger(_ scalars: ArraySlice<Unicode.Scalar>, radix: Int) -> Double {
        var value = 0.0
        for scalar in scalars {
            guard let digit = Int(String(scalar), radix: radix) else { return .nan }
            value = value * Double(radix) + Double(digit)
        }
        return value
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private static func isDecimalLiteral(_ scalars: [Unicode.Scalar]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - start
        }
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        var mantissaDigits = digits()
        if index < scalars.count, scalars[index] == "." {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == scalars.count
    }
}

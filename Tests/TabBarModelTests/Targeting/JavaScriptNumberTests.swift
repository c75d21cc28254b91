@testable import TabBarModel
import Testing

/// JavaScript's number ↔ string conversions, checked against Node.js's `String(n)` and `Number(s)`.
@Suite("JavaScript number conversions")
struct JavaScriptNumberTests {
    @Test(
        "Number to string",
        arguments: [
            (1.0, "1"), (1.5, "1.5"), (1e21, "1e+21"), (1e-7, "1e-7"), (123_456_789_012, "123456789012"),
            (0.000001, "0.000001"), (1.2345e-7, "1.2345e-7"), (-0.0, "0"), (9_007_199_254_740_994, "9007199254740994"),
            (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (100, "100"),
            (0.1 + 0.2, "0.30000000000000004"), (-2.5, "-2.5"),
        ])
    func toString(number: Double, expected: String) {
        #expect(JavaScriptNumber.string(number) == expected)
    }

    @Test(
        "String to number",
        arguments: [
            (" 12 ", 12.0), ("0x1F", 31), ("1e3", 1000), (".5", 0.5), ("5.", 5), ("+1", 1), ("", 0), ("0b101", 5),
            ("Infinity", .infinity),
        ])
    func toNumber(text: String, expected: Double) {
        #expect(JavaScriptNumber.parse(text) == expected)
    }

    @Test("Strings JavaScript does not read as numbers", arguments: ["inf", "nan", "1_000", "-0x10", "0x", "e5", "."])
    func notANumber(text: String) {
        #expect(JavaScriptNumber.parse(text).isNaN)
    }
}

import Foundation
@testable import TabBarModel
import Testing

/// The bounds on `$regex`: a hostile pattern or input ends as no match, quickly.
@Suite("Bounded regular expressions")
struct BoundedRegexTests {
    @Test("Catastrophic backtracking is abandoned as no match")
    func catastrophicBacktracking() {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let text = String(repeating: "a", count: 40) + "!"
            #expect(!BoundedRegex.test(pattern: "^(a+)+$", caseInsensitive: false, text: text))
        }
        #expect(elapsed < .seconds(2))
    }

    @Test("A quadratic search over a full-length input finishes within the bound")
    func quadraticSearch() {
        let text = String(repeating: "xy", count: BoundedRegex.maximumInputLength / 2 - 1) + "z"
        #expect(BoundedRegex.test(pattern: "(x|y)*z$", caseInsensitive: false, text: text))
        #expect(!BoundedRegex.test(pattern: "(x|y)*w", caseInsensitive: false, text: text))
    }

    @Test("Oversized patterns and inputs do not match")
    func oversized() {
        let longPattern = String(repeating: "a", count: BoundedRegex.maximumPatternLength + 1)
        #expect(!BoundedRegex.test(pattern: longPattern, caseInsensitive: false, text: longPattern))
        let longInput = String(repeating: "a", count: BoundedRegex.maximumInputLength + 1)
        #expect(!BoundedRegex.test(pattern: "a", caseInsensitive: false, text: longInput))
        #expect(BoundedRegex.test(pattern: "a", caseInsensitive: false, text: String(longInput.dropFirst())))
    }

    @Test("Invalid patterns do not match; ordinary ones do, anywhere in the text")
    func ordinary() {
        #expect(!BoundedRegex.test(pattern: "(", caseInsensitive: false, text: "("))
        #expect(BoundedRegex.test(pattern: "^ab+c", caseInsensitive: false, text: "abbbc-d"))
        #expect(BoundedRegex.test(pattern: "B+", caseInsensitive: true, text: "abbbc"))
        #expect(!BoundedRegex.test(pattern: "B+", caseInsensitive: false, text: "abbbc"))
    }

    @Test("A pattern ICU cannot compile says why")
    func compileError() {
        #expect(BoundedRegex.compileError("^ab+c$") == nil)
        #expect(BoundedRegex.compileError(#"(?i)^\p{L}{2}(-[A-Z]{2})?$"#) == nil)
        #expect(BoundedRegex.compileError("(a") == "expected ')'")
        #expect(BoundedRegex.compileError("a{2,1}")?.contains("upper bound") == true)
        #expect(BoundedRegex.compileError("*") != nil)
    }
}

import Foundation

/// `$regex` / `$regexi` matching with NSRegularExpression (ICU syntax, close to JavaScript's for the patterns
/// conditions use), bounded so that a hostile pattern cannot hang a request: patterns longer than
/// ``maximumPatternLength`` UTF-16 code units and inputs longer than ``maximumInputLength`` do not match, and a match
/// is abandoned (as no match) once ICU has reported progress ``maximumProgressReports`` times, which bounds
/// catastrophic backtracking (`(a+)+$`) to a few milliseconds of work.
enum BoundedRegex {
    /// The longest pattern compiled, in UTF-16 code units.
    static let maximumPatternLength = 1024
    /// The longest input matched, in UTF-16 code units.
    static let maximumInputLength = 4096
    /// The progress callbacks (each after some thousands of ICU steps) a match may take before it is abandoned.
    static let maximumProgressReports = 16

    /// Whether the pattern finds a match anywhere in the text (JavaScript's `RegExp.test`); false for an invalid or
    /// oversized pattern, an oversized input, or a match abandoned at the bound.
    static func test(pattern: String, caseInsensitive: Bool, text: String) -> Bool {
        guard pattern.utf16.count <= maximumPatternLength, text.utf16.count <= maximumInputLength,
            let expression = try? NSRegularExpression(
                pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        else { return false }
        var found = false
        var reports = 0
        let range = NSRange(location: 0, length: (text as NSString).length)
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else {
                reports += 1
                if reports >= maximumProgressReports { stop.pointee = true }
            }
        }
        return found
    }
}

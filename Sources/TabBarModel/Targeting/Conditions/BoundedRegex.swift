import Foundation

/// `$regex` / `$regexi` matching with NSRegularExpression (ICU syntax, close to JavaScript's for the patterns
/// conditions use), bounded so that a hostile pattern cannot hang a request:
/// - a pattern longer than ``maximumPatternLength`` or an input longer than ``maximumInputLength`` (UTF-16 code
///   units) does not match;
/// - a match is abandoned, as no match, once ICU has reported progress ``maximumProgressReports`` times (ICU reports
///   every 10,000 or so steps of its matcher; 500 reports measured at about 75 ms). This stops catastrophic
///   backtracking (`^(a+)+$` against forty `a`s and a `!`), while a quadratic search over a full-length input
///   (`(x|y)*z` against 1,024 characters) still finishes well within it.
enum BoundedRegex {
    /// The longest pattern compiled, in UTF-16 code units.
    static let maximumPatternLength = 1024
    /// The longest input matched, in UTF-16 code units.
    static let maximumInputLength = 1024
    /// The progress reports (each after some thousands of ICU steps) a match may take before it is abandoned.
    static let maximumProgressReports = 500

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

    /// Why ICU cannot compile the pattern (as `test` compiles it), nil when it can: the reason Swift's regex parser
    /// gives, which reads better than ICU's error code, else a general one.
    static func compileError(_ pattern: String) -> String? {
        guard (try? NSRegularExpression(pattern: pattern)) == nil else { return nil }
        do {
            _ = try Regex(pattern)
            return "ICU cannot compile it"
        } catch {
            return "\(error)"
        }
    }
}

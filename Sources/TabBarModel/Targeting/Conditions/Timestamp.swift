import Foundation

/// The RFC 3339 date-times of a tab's `startsAt` and `endsAt` (`2026-12-01T00:00:00Z`,
/// `2026-12-01T09:00:00.5+01:00`): the one way to turn them into a `Date`.
public enum Timestamp {
    /// The instant `text` names: `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, then `Z` or an offset `±HH:MM`
    /// (`T` and `Z` in either case, as RFC 3339 allows); nil for anything else, a day the month does not have
    /// included. A leap second (`:60`) is refused: `Date` cannot name it.
    public static func parseTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else {
                return nil
            }
            fraction = value
        }
        guard let offset = offset(bytes[index...]) else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `Z` (0) or `±HH:MM`, in seconds east of UTC.
    private static func offset(_ bytes: ArraySlice<UInt8>) -> Int? {
        if bytes.elementsEqual([UInt8(ascii: "Z")]) || bytes.elementsEqual([UInt8(ascii: "z")]) {
            return 0
        }
        let start = bytes.startIndex
        guard bytes.count == 6, bytes[start] == UInt8(ascii: "+") || bytes[start] == UInt8(ascii: "-"),
            bytes[start + 3] == UInt8(ascii: ":"), let hours = number(bytes[(start + 1)..<(start + 3)]),
            let minutes = number(bytes[(start + 4)..<(start + 6)]), hours < 24, minutes < 60
        else { return nil }
        let seconds = hours * 3_600 + minutes * 60
        return bytes[start] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// The decimal value of a run of ASCII digits; nil when any byte is not one.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.allSatisfy(\.isASCIIDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return month == 2 ? (isLeapYear ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

import Foundation

/// Time as the stores keep it: whole milliseconds since 1970, so that a date written and read back is equal to the one
/// held in memory.
enum StoredTime {
    /// The whole milliseconds since 1970 of `date`, to the nearest: a date of whole milliseconds gives them back (its
    /// product by 1000 can fall a hair short of them).
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date of `milliseconds` since 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` rounded to whole milliseconds.
    static func rounded(_ date: Date) -> Date {
        self.date(milliseconds(date))
    }
}

import Foundation
import TabBarModel
import Testing

@Suite("RFC 3339 timestamps and version strings")
struct TimestampTests {
    @Test func parsesUTCAndOffsets() {
        #expect(Timestamp.parseTimestamp("2026-12-01T00:00:00Z") == Date(timeIntervalSince1970: 1_796_083_200))
        #expect(Timestamp.parseTimestamp("2026-12-01T09:00:00.5+01:00") == Date(timeIntervalSince1970: 1_796_112_000.5))
        #expect(Timestamp.parseTimestamp("2026-11-27T00:00:00-05:00") == Date(timeIntervalSince1970: 1_795_755_600))
        #expect(Timestamp.parseTimestamp("2026-12-01T05:30:00+05:30") == Timestamp.parseTimestamp("2026-12-01T00:00:00Z"))
        #expect(Timestamp.parseTimestamp("2026-12-01T00:00:00-00:00") == Timestamp.parseTimestamp("2026-12-01T00:00:00Z"))
        #expect(Timestamp.parseTimestamp("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test func fractionalSecondsOfAnyLength() throws {
        let date = try #require(Timestamp.parseTimestamp("2026-12-01T00:00:00.123456789Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_796_083_200.123456789) < 1e-6)
        let now = Date(timeIntervalSince1970: 1_796_083_200.25)
        #expect(Timestamp.parseTimestamp(CanonicalJSON.timestamp(now)) == now)
    }

    @Test func lowercaseSeparatorAndZoneAreAllowed() {
        #expect(Timestamp.parseTimestamp("2026-12-01t00:00:00z") == Timestamp.parseTimestamp("2026-12-01T00:00:00Z"))
        #expect(Timestamp.parseTimestamp("2026-12-01t00:00:00Z") != nil)
    }

    @Test func leapDays() {
        #expect(Timestamp.parseTimestamp("2024-02-29T12:00:00Z") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(Timestamp.parseTimestamp("2000-02-29T00:00:00Z") != nil)
        #expect(Timestamp.parseTimestamp("2026-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parseTimestamp("1900-02-29T00:00:00Z") == nil)
    }

    @Test func refusesWhatIsNotAnRFC3339DateTime() {
        let invalid = [
            "", "2026-12-01", "2026-12-01T00:00:00", "2026-12-01T00:00Z", "2026-12-01 00:00:00Z",
            "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-12-00T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-12-32T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T00:60:00Z", "2026-12-01T23:59:60Z",
            "2026-12-01T00:00:00.Z", "2026-12-01T00:00:00+0100", "2026-12-01T00:00:00+24:00",
            "2026-12-01T00:00:00+01:60", "2026-12-01T00:00:00ZZ", "2026-12-01T00:00:00 Z", "26-12-01T00:00:00Z",
            "2026-1-01T00:00:00Z", "+2026-12-01T00:00:00Z", "２０２６-12-01T00:00:00Z", "2026-12-01T00:00:00UTC",
        ]
        for text in invalid {
            #expect(Timestamp.parseTimestamp(text) == nil, "\(text)")
        }
    }

    @Test func versionFormat() {
        for version in ["5", "5.2", "5.2.0", "1.2.3.4", "v5.2.0+42", "5.2.0-beta.1", "5.2.0-rc-1+build.7", "05.02"] {
            #expect(VersionFormat.isWellFormed(version), "\(version)")
        }
        for version in [
            "", "v", "abc", "5..2", ".5", "5.", "1.2.3.4.5", "5.2-", "5.2+", "5.2-beta_1", "5.2+a+b", "V5.2", "5.2 ",
            "٥.٢",
        ] {
            #expect(!VersionFormat.isWellFormed(version), "\(version)")
        }
    }
}

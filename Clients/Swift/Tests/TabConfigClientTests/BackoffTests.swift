import Foundation
import Testing

@testable import TabConfigClient

@Suite("Backoff and Retry-After")
struct BackoffTests {
    @Test("Full jitter: every wait lies between zero and the exponential ceiling, which stops at the cap")
    func fullJitter() {
        let backoff = Backoff(baseDelay: .milliseconds(100), maxDelay: .seconds(2))
        #expect((0...6).map(backoff.ceiling) == [100, 200, 400, 800, 1600, 2000, 2000].map { .milliseconds($0) })
        #expect(backoff.ceiling(attempt: 500) == .seconds(2))
        var generator = SystemRandomNumberGenerator()
        var waits: Set<Duration> = []
        for attempt in 0..<8 {
            for _ in 0..<50 {
                let wait = backoff.delay(attempt: attempt, using: &generator)
                #expect(wait >= .zero && wait <= backoff.ceiling(attempt: attempt))
                waits.insert(wait)
            }
        }
        #expect(waits.count > 20)
    }

    @Test("Retry-After: seconds, and HTTP-dates in the three forms RFC 9110 names; anything else is ignored")
    func retryAfter() throws {
        #expect(RetryAfter.delay("5") == .seconds(5))
        #expect(RetryAfter.delay(" 120 ") == .seconds(120))
        let now = try #require(RetryAfter.date("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay("Sunday, 06-Nov-94 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.delay("Sun Nov  6 08:49:57 1994", now: now) == .seconds(20))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay("soon") == nil)
        #expect(RetryAfter.delay("-5") == nil)
    }
}

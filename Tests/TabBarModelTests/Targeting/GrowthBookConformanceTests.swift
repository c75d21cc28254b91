import Foundation
@testable import TabBarModel
import Testing

/// GrowthBook's cross-SDK conformance cases (spec 0.8.0, `Tests/Fixtures/growthbook-cases.json`).
@Suite("GrowthBook conformance")
struct GrowthBookConformanceTests {
    @Test("evalCondition", arguments: GrowthBookCases.section("evalCondition"))
    func evalCondition(testCase: [JSONValue]) throws {
        try #require(testCase.count >= 4)
        let name = try GrowthBookCases.string(testCase[0])
        var groups: [String: [JSONValue]] = [:]
        if testCase.count > 4, case .object(let members) = testCase[4] {
            for member in members {
                if case .array(let values) = member.value { groups[member.key] = values }
            }
        }
        let evaluator = ConditionEvaluator(savedGroups: groups)
        #expect(evaluator.evalCondition(testCase[2], testCase[1]) == (testCase[3] == .bool(true)), "\(name)")
    }

    @Test("hash", arguments: GrowthBookCases.section("hash"))
    func hash(testCase: [JSONValue]) throws {
        try #require(testCase.count == 4)
        let seed = try GrowthBookCases.string(testCase[0])
        let value = try GrowthBookCases.string(testCase[1])
        let version = try #require(testCase[2].integerValue)
        let result = Bucketing.hash(seed: seed, value: value, version: version)
        #expect(result == testCase[3].numberValue, "\(seed) \(value) v\(version)")
    }

    @Test("getBucketRange", arguments: GrowthBookCases.section("getBucketRange"))
    func getBucketRange(testCase: [JSONValue]) throws {
        try #require(testCase.count == 3)
        let name = try GrowthBookCases.string(testCase[0])
        guard case .array(let arguments) = testCase[1], arguments.count == 3 else {
            Issue.record("\(name): malformed arguments")
            return
        }
        let count = try #require(arguments[0].integerValue)
        let weights = try GrowthBookCases.numbers(arguments[2])
        let ranges = Bucketing.getBucketRanges(
            numVariations: count, coverage: arguments[1].numberValue, weights: weights)
        let expected = try GrowthBookCases.ranges(testCase[2])
        #expect(ranges.count == expected.count, "\(name)")
        for (range, wanted) in zip(ranges, expected) {
            #expect(abs(range.start - wanted.start) < 1e-9 && abs(range.end - wanted.end) < 1e-9, "\(name)")
        }
    }

    @Test("chooseVariation", arguments: GrowthBookCases.section("chooseVariation"))
    func chooseVariation(testCase: [JSONValue]) throws {
        try #require(testCase.count == 4)
        let name = try GrowthBookCases.string(testCase[0])
        let bucket = try GrowthBookCases.number(testCase[1])
        let ranges = try GrowthBookCases.ranges(testCase[2])
        let expected = try #require(testCase[3].integerValue)
        #expect(Bucketing.chooseVariation(bucket: bucket, ranges: ranges) == expected, "\(name)")
    }

    @Test("The fixture is read, with the expected number of cases")
    func fixtureIsRead() {
        #expect(GrowthBookCases.section("evalCondition").count == 248)
        #expect(GrowthBookCases.section("hash").count == 15)
        #expect(GrowthBookCases.section("getBucketRange").count == 13)
        #expect(GrowthBookCases.section("chooseVariation").count == 13)
    }
}

/// The calls made, one printed line each, grouped by operation for the summary.
final class Checklist {
    private var order: [String] = []
    private var failedOperations: Set<String> = []
    private var calls = 0

    /// Runs one call of `operation`: `body` returns what the decoded answer showed, or throws.
    func call(_ operation: String, _ what: String, _ body: () async throws -> String) async {
        if !order.contains(operation) { order.append(operation) }
        calls += 1
        do {
            let detail = try await body()
            print("ok    \(operation) \(what): \(detail)")
        } catch {
            failedOperations.insert(operation)
            print("FAIL  \(operation) \(what): \(error)")
        }
    }

    /// Whether every call decoded into its expected case.
    var passed: Bool { failedOperations.isEmpty }

    /// "N operations decoded, M failed", with the number of calls.
    var summary: String {
        let decoded = order.count - failedOperations.count
        return "\(decoded) operations decoded, \(failedOperations.count) failed (\(calls) calls)"
    }
}

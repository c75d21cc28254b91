/// ISO 8601 durations of fixed length, as a staged rollout's `hold` is written: `P`, then weeks (`P2W`) or days and
/// a time (`P1DT12H`, `PT1H30M`, `PT0.5S`). Years and months are refused: their length depends on the calendar.
public enum ISODuration {
    /// The seconds `text` names; nil when it is not such a duration.
    public static func seconds(_ text: String) -> Double? {
        var rest = Substring(text)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var components = 0
        var inTime = false
        // The designators allowed next, in order: a designator may follow only those before it.
        var allowed: [Character] = ["W", "D"]
        while !rest.isEmpty {
            if rest.first == "T" {
                guard !inTime else { return nil }
                inTime = true
                allowed = ["H", "M", "S"]
                rest = rest.dropFirst()
                guard !rest.isEmpty else { return nil }
                continue
            }
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
            guard !digits.isEmpty, digits.first!.isNumber, digits.last!.isNumber, digits.count <= 12 else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let designator = rest.first, let index = allowed.firstIndex(of: designator) else { return nil }
            rest = rest.dropFirst()
            let isFraction = digits.contains(".") || digits.contains(",")
            guard !isFraction || designator == "S",
                let value = Double(String(digits.map { $0 == "," ? "." : $0 }))
            else { return nil }
            switch designator {
            case "W":
                guard components == 0, rest.isEmpty else { return nil }
                total += value * 604_800
            case "D": total += value * 86_400
            case "H": total += value * 3_600
            case "M": total += value * 60
            default: total += value
            }
            components += 1
            allowed = Array(allowed[(index + 1)...])
        }
        return components > 0 ? total : nil
    }
}

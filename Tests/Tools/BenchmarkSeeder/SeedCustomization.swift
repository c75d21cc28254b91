import TabBarStore

/// The customization the seeder stores for user number `index`: deterministic, so that a benchmark can check what it
/// reads back, and shaped like a real one for the sample config (`home` first, 4 to 7 tab ids, 0 or 1 hidden tab).
enum SeedCustomization {
    /// The sample config's tabs after the locked `home`.
    static let movableTabs = ["search", "library", "favorites", "profile", "settings", "downloads"]
    /// The sample config's hideable tabs.
    static let hideableTabs = ["settings", "downloads"]

    /// The value for user number `index`.
    static func make(_ index: Int) -> StoredCustomization {
        var random = SplitMix64(seed: UInt64(index))
        var tabs = movableTabs
        for position in stride(from: tabs.count - 1, to: 0, by: -1) {
            tabs.swapAt(position, Int(random.next() % UInt64(position + 1)))
        }
        let shown = 3 + Int(random.next() % 4)
        let order = ["home"] + tabs.prefix(shown)
        let hideable = hideableTabs.filter { !order.contains($0) }
        var hidden: [String] = []
        if !hideable.isEmpty, random.next() % 2 == 0 {
            hidden = [hideable[Int(random.next() % UInt64(hideable.count))]]
        }
        return StoredCustomization(order: order, hidden: hidden)
    }

    /// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
    private struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

/// Entries by key, bounded by their count and by the bytes their owner says each takes. When an insert would
/// pass a bound, it first drops entries until a tenth of the room is free, so that sweep runs at most once per tenth
/// of the capacity inserted. Not thread-safe on its own: its owners keep it in a `Mutex`.
///
/// The entries dropped are every tenth in the table's order, spread over the whole hash table. Dropping them from
/// `first` on, a run of neighbouring buckets, left a table whose misses each probed through thousands of entries.
struct BoundedCache<Key: Hashable, Value> {
    let capacity: Int
    let byteCapacity: Int
    private var entries: [Key: (value: Value, size: Int)] = [:]
    private(set) var bytes = 0

    init(capacity: Int, byteCapacity: Int) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    var count: Int { entries.count }

    subscript(key: Key) -> Value? {
        entries[key]?.value
    }

    /// Whether inserting an entry of `size` bytes would first drop some.
    func isFull(adding size: Int) -> Bool {
        entries.count >= capacity || bytes + size > byteCapacity
    }

    /// Keeps `value` under `key`, taking `size` bytes; nothing changes when `key` is kept already.
    mutating func insert(_ value: Value, for key: Key, size: Int) {
        guard capacity > 0, size <= byteCapacity, entries[key] == nil else { return }
        if isFull(adding: size) {
            makeRoom(for: size)
        }
        entries[key] = (value, size)
        bytes += size
    }

    /// Puts `value` of `size` bytes in the place of the entry kept under `key`; nothing changes when there is none.
    mutating func replace(_ value: Value, for key: Key, size: Int) {
        guard let old = entries[key] else { return }
        entries[key] = (value, size)
        bytes += size - old.size
    }

    mutating func removeValue(forKey key: Key) {
        if let removed = entries.removeValue(forKey: key) {
            bytes -= removed.size
        }
    }

    /// Drops every entry whose value `shouldBeRemoved` picks.
    mutating func removeAll(where shouldBeRemoved: (Value) -> Bool) {
        entries = entries.filter { !shouldBeRemoved($0.value.value) }
        bytes = entries.values.reduce(0) { $0 + $1.size }
    }

    private mutating func makeRoom(for size: Int) {
        let countTarget = capacity - max(1, capacity / 10)
        let byteTarget = byteCapacity - byteCapacity / 10
        while !entries.isEmpty, entries.count > countTarget || bytes + size > byteTarget {
            let dropped = entries.keys.enumerated().compactMap { $0.offset % 10 == 0 ? $0.element : nil }
            for key in dropped {
                removeValue(forKey: key)
            }
        }
    }
}

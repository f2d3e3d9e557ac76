/// A small map that keeps the `capacity` most recently used values and forgets older ones.
///
/// Lookups and insertions cost `O(capacity)`, which is nothing next to what the values cost to
/// make (reading and decoding a pose sequence) at the capacities used here (tens).
struct LeastRecentlyUsedCache<Key: Hashable, Value> {
    /// The most values kept.
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// Keys from least to most recently used.
    private var order: [Key] = []

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: The most values kept; at least 1.
    init(capacity: Int) {
        precondition(capacity > 0, "LeastRecentlyUsedCache needs a positive capacity")
        self.capacity = capacity
    }

    /// The value for `key`, which becomes the most recently used, or nil.
    mutating func value(for key: Key) -> Value? {
        guard let value = values[key] else { return nil }
        touch(key)
        return value
    }

    /// Stores `value` as the most recently used, forgetting the least recently used beyond capacity.
    mutating func insert(_ value: Value, for key: Key) {
        if values.updateValue(value, forKey: key) != nil {
            touch(key)
            return
        }
        order.append(key)
        if order.count > capacity {
            values[order.removeFirst()] = nil
        }
    }

    private mutating func touch(_ key: Key) {
        if let position = order.firstIndex(of: key) { order.remove(at: position) }
        order.append(key)
    }
}

/// Lists of lists flattened into one array and its start offsets (compressed
/// sparse rows): bucket `i` is `items[starts[i] ..< starts[i + 1]]`. One
/// allocation to walk instead of one per bucket, for the grid cells and the
/// polygon bands.
struct Buckets<Item> {
    let starts: [Int32]
    let items: [Item]

    init(_ buckets: [[Item]]) {
        var starts: [Int32] = [0]
        starts.reserveCapacity(buckets.count + 1)
        var items: [Item] = []
        items.reserveCapacity(buckets.reduce(0) { $0 + $1.count })
        for bucket in buckets {
            items += bucket
            starts.append(Int32(items.count))
        }
        self.starts = starts
        self.items = items
    }

    /// `count` buckets filled by counting sort: `place` is called twice and must
    /// put the same items in the same buckets, in the same order, both times
    /// (first counted, then stored); no list per bucket is built.
    /// - Complexity: O(count + items), two calls of `place`.
    init(count: Int, place: ((Int, Item) -> Void) -> Void) {
        var starts = [Int32](repeating: 0, count: count + 1)
        place { bucket, _ in starts[bucket + 1] += 1 }
        for bucket in 0..<count { starts[bucket + 1] += starts[bucket] }
        var next = Array(starts[0..<count])
        let total = Int(starts[count])
        self.starts = starts
        items = Array(unsafeUninitializedCapacity: total) { buffer, initialized in
            var stored = 0
            place { bucket, item in
                precondition(next[bucket] < starts[bucket + 1], "Buckets: the second placing differs from the first")
                (buffer.baseAddress! + Int(next[bucket])).initialize(to: item)
                next[bucket] += 1
                stored += 1
            }
            precondition(stored == total, "Buckets: the second placing differs from the first")
            initialized = total
        }
    }
}

extension Buckets: Sendable where Item: Sendable {}

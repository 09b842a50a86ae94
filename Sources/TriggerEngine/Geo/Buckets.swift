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
}

extension Buckets: Sendable where Item: Sendable {}

/// The sweep's status: the edges the sweep line crosses, ordered bottom to top,
/// in a treap (a binary search tree kept balanced by random priorities) with
/// parent links, threaded by `below`/`above` so that neighbours cost nothing.
/// Node `i` is edge `i`; the tables are allocated once for every edge.
extension SimplicitySweep {
    /// The treap priority of an edge: a fixed hash, so runs are reproducible.
    @inline(__always)
    static func priority(_ edge: Int32) -> UInt64 {
        var z = UInt64(UInt32(bitPattern: edge)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Inserts `edge`, which starts at the current vertex, and tests it against
    /// its new neighbours; `false` when it meets one (or touches an edge on the way).
    /// - Complexity: O(log n) expected.
    mutating func insert(_ edge: Int32) -> Bool {
        var lower: Int32 = -1, upper: Int32 = -1
        var node = root
        var parentNode: Int32 = -1
        var goesRight = false
        while node >= 0 {
            guard let isAbove = isAbove(edge, node) else { return false }
            parentNode = node
            goesRight = isAbove
            if isAbove {
                lower = node
                node = right[Int(node)]
            } else {
                upper = node
                node = left[Int(node)]
            }
        }
        parent[Int(edge)] = parentNode
        left[Int(edge)] = -1
        right[Int(edge)] = -1
        if parentNode < 0 {
            root = edge
        } else if goesRight {
            right[Int(parentNode)] = edge
        } else {
            left[Int(parentNode)] = edge
        }
        below[Int(edge)] = lower
        above[Int(edge)] = upper
        if lower >= 0 { above[Int(lower)] = edge }
        if upper >= 0 { below[Int(upper)] = edge }
        while parent[Int(edge)] >= 0 && Self.priority(parent[Int(edge)]) < Self.priority(edge) {
            rotateUp(edge)
        }
        if lower >= 0 && meet(lower, edge) { return false }
        if upper >= 0 && meet(edge, upper) { return false }
        return true
    }

    /// Removes `edge`, which ends at the current vertex, and tests the two edges
    /// that become neighbours; `false` when they meet.
    /// - Complexity: O(log n) expected.
    mutating func remove(_ edge: Int32) -> Bool {
        let e = Int(edge)
        while left[e] >= 0 || right[e] >= 0 {
            // Rotate the child of higher priority above the node until it is a leaf.
            let child: Int32
            if left[e] < 0 {
                child = right[e]
            } else if right[e] < 0 {
                child = left[e]
            } else {
                child = Self.priority(left[e]) > Self.priority(right[e]) ? left[e] : right[e]
            }
            rotateUp(child)
        }
        let parentNode = parent[e]
        if parentNode < 0 {
            root = -1
        } else if left[Int(parentNode)] == edge {
            left[Int(parentNode)] = -1
        } else {
            right[Int(parentNode)] = -1
        }
        let lower = below[e], upper = above[e]
        if lower >= 0 { above[Int(lower)] = upper }
        if upper >= 0 { below[Int(upper)] = lower }
        return lower < 0 || upper < 0 || !meet(lower, upper)
    }

    /// Makes `node` the parent of its parent, keeping the in-order sequence.
    private mutating func rotateUp(_ node: Int32) {
        let n = Int(node)
        let up = parent[n]
        let p = Int(up)
        let grand = parent[p]
        if left[p] == node {
            left[p] = right[n]
            if right[n] >= 0 { parent[Int(right[n])] = up }
            right[n] = up
        } else {
            right[p] = left[n]
            if left[n] >= 0 { parent[Int(left[n])] = up }
            left[n] = up
        }
        parent[p] = node
        parent[n] = grand
        if grand < 0 {
            root = node
        } else if left[Int(grand)] == up {
            left[Int(grand)] = node
        } else {
            right[Int(grand)] = node
        }
    }
}

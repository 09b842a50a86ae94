/// The sweep's status: the edges the sweep line crosses, ordered bottom to top,
/// in a treap (a binary search tree kept balanced by random priorities) with
/// parent links, threaded by `below`/`above` so that neighbours cost nothing.
/// Node `i` is edge `i`'s; a node moves to the next edge of its ring where the
/// ring passes through a vertex, keeping its place and priority.
extension SimplicitySweep {
    /// A hash of an edge under this sweep's random seed: the tree's shape cannot be
    /// forced by a ring written for it, so its depth stays O(log n) expected.
    @inline(__always)
    func priority(_ edge: Int32) -> UInt32 {
        var z = (UInt64(UInt32(bitPattern: edge)) ^ seed) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// Inserts `edge`, which starts at the current vertex, and tests it against
    /// its new neighbours; `false` when it meets one (or touches an edge on the way).
    /// - Complexity: O(log n) expected.
    mutating func insert(_ edge: Int32) -> Bool {
        prepare(edge)
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
                node = nodes[Int(node)].right
            } else {
                upper = node
                node = nodes[Int(node)].left
            }
        }
        let e = Int(edge)
        nodes[e].priority = priority(edge)
        nodes[e].parent = parentNode
        nodes[e].left = -1
        nodes[e].right = -1
        if parentNode < 0 {
            root = edge
        } else if goesRight {
            nodes[Int(parentNode)].right = edge
        } else {
            nodes[Int(parentNode)].left = edge
        }
        nodes[e].below = lower
        nodes[e].above = upper
        if lower >= 0 { nodes[Int(lower)].above = edge }
        if upper >= 0 { nodes[Int(upper)].below = edge }
        while nodes[e].parent >= 0 && nodes[Int(nodes[e].parent)].priority < nodes[e].priority {
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
        while nodes[e].left >= 0 || nodes[e].right >= 0 {
            // Rotate the child of higher priority above the node until it is a leaf.
            let left = nodes[e].left, right = nodes[e].right
            let child: Int32
            if left < 0 {
                child = right
            } else if right < 0 {
                child = left
            } else {
                child = nodes[Int(left)].priority > nodes[Int(right)].priority ? left : right
            }
            rotateUp(child)
        }
        let parentNode = nodes[e].parent
        if parentNode < 0 {
            root = -1
        } else if nodes[Int(parentNode)].left == edge {
            nodes[Int(parentNode)].left = -1
        } else {
            nodes[Int(parentNode)].right = -1
        }
        let lower = nodes[e].below, upper = nodes[e].above
        if lower >= 0 { nodes[Int(lower)].above = upper }
        if upper >= 0 { nodes[Int(upper)].below = lower }
        return lower < 0 || upper < 0 || !meet(lower, upper)
    }

    /// Puts `successor`, which starts at the current vertex where `edge` ends, in
    /// `edge`'s place: nothing lies between them there (a contact would already
    /// have been found), so the order holds. Tests the new neighbours.
    /// - Complexity: O(1).
    mutating func replace(_ edge: Int32, by successor: Int32) -> Bool {
        let old = nodes[Int(edge)]
        prepare(successor)
        let s = Int(successor)
        nodes[s].priority = old.priority
        nodes[s].left = old.left
        nodes[s].right = old.right
        nodes[s].parent = old.parent
        nodes[s].below = old.below
        nodes[s].above = old.above
        if old.left >= 0 { nodes[Int(old.left)].parent = successor }
        if old.right >= 0 { nodes[Int(old.right)].parent = successor }
        if old.parent < 0 {
            root = successor
        } else if nodes[Int(old.parent)].left == edge {
            nodes[Int(old.parent)].left = successor
        } else {
            nodes[Int(old.parent)].right = successor
        }
        if old.below >= 0 { nodes[Int(old.below)].above = successor }
        if old.above >= 0 { nodes[Int(old.above)].below = successor }
        if old.below >= 0 && meet(old.below, successor) { return false }
        if old.above >= 0 && meet(successor, old.above) { return false }
        return true
    }

    /// Makes `node` the parent of its parent, keeping the in-order sequence.
    private mutating func rotateUp(_ node: Int32) {
        let n = Int(node)
        let up = nodes[n].parent
        let p = Int(up)
        let grand = nodes[p].parent
        if nodes[p].left == node {
            let moved = nodes[n].right
            nodes[p].left = moved
            if moved >= 0 { nodes[Int(moved)].parent = up }
            nodes[n].right = up
        } else {
            let moved = nodes[n].left
            nodes[p].right = moved
            if moved >= 0 { nodes[Int(moved)].parent = up }
            nodes[n].left = up
        }
        nodes[p].parent = node
        nodes[n].parent = grand
        if grand < 0 {
            root = node
        } else if nodes[Int(grand)].left == up {
            nodes[Int(grand)].left = node
        } else {
            nodes[Int(grand)].right = node
        }
    }
}

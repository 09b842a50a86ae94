internal import CGEOS

/// GEOS's sort-tile-recursive tree (`GEOSSTRtree_create_r`) over integer items,
/// each stored with the envelope of the geometry it was inserted with.
///
/// GEOS copies the envelope on insert, so the geometry need not outlive the call.
/// The tree is built on the first query; inserting after that is an error in GEOS,
/// so this type refuses it up front.
package final class GEOSSTRtree {
    private let context: GEOSContext
    private let handle: OpaquePointer
    private var isBuilt = false
    /// The number of items inserted.
    package private(set) var count = 0

    /// Creates an empty tree; `nodeCapacity` is GEOS's node fan-out (≥ 2).
    package init(nodeCapacity: Int = 10, in context: GEOSContext) throws(GEOSError) {
        self.context = context
        handle = try context.check(GEOSSTRtree_create_r(context.handle, max(2, nodeCapacity)), "GEOSSTRtree_create_r")
    }

    deinit {
        GEOSSTRtree_destroy_r(context.handle, handle)
    }

    /// Inserts `item` with the envelope of `geometry`.
    package func insert(_ item: Int, envelopeOf geometry: GEOSGeometry) {
        precondition(!isBuilt, "GEOSSTRtree: insert after the first query")
        precondition(item >= 0, "GEOSSTRtree items are non-negative")
        // Items travel as pointer-sized integers, offset by one so that 0 is never NULL.
        GEOSSTRtree_insert_r(context.handle, handle, geometry.handle, UnsafeMutableRawPointer(bitPattern: item + 1))
        count += 1
    }

    /// Calls `body` with every item whose envelope intersects the envelope of `geometry`,
    /// in the tree's order.
    package func query(intersecting geometry: GEOSGeometry, _ body: (Int) -> Void) {
        isBuilt = true
        withoutActuallyEscaping(body) { body in
            var visitor = body
            withUnsafeMutablePointer(to: &visitor) { pointer in
                GEOSSTRtree_query_r(context.handle, handle, geometry.handle, { item, userData in
                    let visit = userData!.assumingMemoryBound(to: ((Int) -> Void).self).pointee
                    visit(Int(bitPattern: item) - 1)
                }, pointer)
            }
        }
    }

    /// The items whose envelopes intersect the envelope of `geometry`, sorted.
    package func items(intersecting geometry: GEOSGeometry) -> [Int] {
        var found: [Int] = []
        query(intersecting: geometry) { found.append($0) }
        return found.sorted()
    }
}

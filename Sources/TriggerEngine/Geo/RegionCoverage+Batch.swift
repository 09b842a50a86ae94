/// The coverage of a whole batch of fixes, computed in spatial order.
///
/// In file order, consecutive fixes come from devices far apart, and each exact
/// test fetches a different polygon's raster and edges from memory: on 10,000
/// jagged polygons (40 MB of tables) that was most of the time per fix. Sorted
/// by grid cell, the fixes of one neighbourhood are tested one after another
/// while its polygons are in cache. Which regions hold a point does not depend on
/// the device's state, so the order is free; the state machine then takes the
/// fixes in file order with their coverage ready.
extension RegionCoverage {
    /// Fills `coveredStart`, `coveredCount` and `coveredRegions` of `batch` for
    /// every row: the regions holding the row's position (none for bad rows and
    /// positions out of range, which the monitor skips).
    /// - Complexity: O(rows) for the order (a radix sort on cell numbers), plus
    ///   the exact tests.
    func fillCoverage(_ batch: inout FixBatch) {
        orderCoverage(&batch)
        var part = CoveragePart()
        batch.coverageKeys.withUnsafeBufferPointer { keys in
            batch.coveragePoints.withUnsafeBufferPointer { points in
                cover(keys.indices, keys: keys, points: points, into: &part)
            }
        }
        Self.merge([part], keys: batch.coverageKeys, into: &batch)
    }

    /// Puts the rows worth testing in spatial order (`coverageKeys`, with their
    /// positions in `coveragePoints`), with no coverage found yet.
    func orderCoverage(_ batch: inout FixBatch) {
        let count = batch.rows.count
        batch.coverageKeys.removeAll(keepingCapacity: true)
        let grid = index.grid
        let everywhere = !grid.largeItems.isEmpty
        // (place on the curve + 1) << 32 | row for every row worth testing; 0 when
        // only large items can hold it.
        var largest: UInt64 = 0
        // The keys in a local array (moved out and back, so never copied) and the
        // rows as a plain buffer: no per-row checks through the inout batch.
        var keys = batch.coverageKeys
        batch.coverageKeys = []
        keys.reserveCapacity(count)
        batch.rows.withUnsafeBufferPointer { rows in
            for position in rows.indices {
                let row = rows[position]
                guard row.device >= 0, row.lat >= -90, row.lat <= 90, row.lon >= -180, row.lon <= 180 else { continue }
                let cell = grid.cell(row.lon, row.lat)
                if cell < 0 && !everywhere { continue }
                let place = cell < 0 ? 0 : grid.curvePosition(row.lon, row.lat, cell: cell) + 1
                largest = max(largest, place)
                keys.append(place << 32 | UInt64(position))
            }
        }
        Self.radixSort(&keys, bits: 64 - largest.leadingZeroBitCount)
        // The rows' positions gathered in the new order. Read from the rows in
        // the test loop, each was a cache miss waited for (a fifth of the
        // loop's time); here the loads are independent and overlap.
        var points = batch.coveragePoints
        batch.coveragePoints = []
        points.removeAll(keepingCapacity: true)
        points.reserveCapacity(keys.count)
        batch.rows.withUnsafeBufferPointer { rows in
            for key in keys {
                let row = rows[Int(truncatingIfNeeded: key & 0xFFFF_FFFF)]
                points.append((row.lon, row.lat))
            }
        }
        batch.coverageKeys = keys
        batch.coveragePoints = points
    }

    /// Finds the coverage of the ordered rows in `slots` (positions in `keys`
    /// and `points`, as `orderCoverage` left them) and appends it to `part`.
    /// Several calls, on this thread or others with coverages of their own, can
    /// share out one batch's slots (`BatchCoverageJob`).
    func cover(_ slots: Range<Int>, keys: UnsafeBufferPointer<UInt64>, points: UnsafeBufferPointer<(x: Double, y: Double)>,
               into part: inout CoveragePart) {
        guard !slots.isEmpty else { return }
        part.ranges.append(slots)
        // Local arrays, moved out of the part and back (never copied): each
        // append through the inout part was a uniqueness check in the hot loop.
        var counts = part.counts, regions = part.regions
        part.counts = []
        part.regions = []
        counts.reserveCapacity(counts.count + slots.count)
        // The grid and tables once for the whole run of slots (see `Tables`).
        let grid = index.grid
        withTables { tables in
            for slot in slots {
                let point = points[slot]
                collect(point.x, point.y, grid, tables)
                let covered = self.covered
                counts.append(Int32(covered.count))
                if !covered.isEmpty { regions.append(contentsOf: covered) }
            }
        }
        part.counts = counts
        part.regions = regions
    }

    /// Sets every row's `coveredStart`, `coveredCount` and `coveredRegions` in
    /// `batch` from the parts that together cover all the slots of `keys` (rows
    /// not in `keys` hold nothing).
    /// - Complexity: O(rows + regions found).
    static func merge(_ parts: [CoveragePart], keys: [UInt64], into batch: inout FixBatch) {
        let count = batch.rows.count
        // The batch's own arrays, emptied and refilled: a recycled batch keeps
        // their room, and new ones were a few MB faulted in per batch.
        var starts = batch.coveredStart, counts = batch.coveredCount
        batch.coveredStart = []
        batch.coveredCount = []
        starts.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: count))
        counts.append(contentsOf: repeatElement(0, count: count))
        var regions = batch.coveredRegions
        batch.coveredRegions = []
        regions.removeAll(keepingCapacity: true)
        regions.reserveCapacity(parts.reduce(0) { $0 + $1.regions.count })
        keys.withUnsafeBufferPointer { keys in
            starts.withUnsafeMutableBufferPointer { starts in
                counts.withUnsafeMutableBufferPointer { counts in
                    for part in parts {
                        var offset = regions.count
                        var next = 0
                        part.counts.withUnsafeBufferPointer { found in
                            for range in part.ranges {
                                for slot in range {
                                    let position = Int(truncatingIfNeeded: keys[slot] & 0xFFFF_FFFF)
                                    starts[position] = offset
                                    counts[position] = found[next]
                                    offset += Int(found[next])
                                    next += 1
                                }
                            }
                        }
                        regions += part.regions
                    }
                }
            }
        }
        batch.coveredStart = starts
        batch.coveredCount = counts
        batch.coveredRegions = regions
    }

    /// Sorts by the bits above the low 32, of which only the low `bits` are
    /// used, 11 bits a pass (least significant first, stable).
    private static func radixSort(_ keys: inout [UInt64], bits: Int) {
        guard keys.count > 1, bits > 0 else { return }
        var other = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 2048)
        var shift: UInt64 = 32
        while shift < 32 + UInt64(bits) && shift < 64 {
            for index in counts.indices { counts[index] = 0 }
            for key in keys { counts[Int((key >> shift) & 2047)] += 1 }
            var total = 0
            for index in counts.indices {
                let size = counts[index]
                counts[index] = total
                total += size
            }
            for key in keys {
                let digit = Int((key >> shift) & 2047)
                other[counts[digit]] = key
                counts[digit] += 1
            }
            swap(&keys, &other)
            shift += 11
        }
    }
}

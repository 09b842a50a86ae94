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
        fillCoverage(&batch, upTo: batch.coverageKeys.count)
    }

    /// Puts the rows worth testing in spatial order (`coverageKeys`), with no
    /// coverage found yet; every row's count starts at 0.
    func orderCoverage(_ batch: inout FixBatch) {
        let count = batch.rows.count
        batch.coveredStart = [Int](repeating: 0, count: count)
        batch.coveredCount = [Int32](repeating: 0, count: count)
        batch.coveredRegions.removeAll(keepingCapacity: true)
        batch.coverageKeys.removeAll(keepingCapacity: true)
        batch.coverageDone = 0
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
                let place = cell < 0 ? 0 : grid.curvePosition(ofCell: cell) + 1
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

    /// Finds the coverage of the ordered rows from `coverageDone` up to `end`
    /// (the rest may be left to another coverage on another thread).
    func fillCoverage(_ batch: inout FixBatch, upTo end: Int) {
        let done = batch.coverageDone
        guard done < end else { return }
        // Plain buffers: the loop is hot, and each checked array store of an
        // inout struct's property costs a uniqueness check.
        // The grid and tables once for the batch (see `Tables`).
        let grid = index.grid
        withTables { tables in
            batch.coveredStart.withUnsafeMutableBufferPointer { starts in
                batch.coveredCount.withUnsafeMutableBufferPointer { counts in
                    batch.coveragePoints.withUnsafeBufferPointer { points in
                        batch.coverageKeys.withUnsafeBufferPointer { keys in
                            for slot in done..<end {
                                let position = Int(truncatingIfNeeded: keys[slot] & 0xFFFF_FFFF)
                                let point = points[slot]
                                collect(point.x, point.y, grid, tables)
                                starts[position] = batch.coveredRegions.count
                                let covered = self.covered
                                counts[position] = Int32(covered.count)
                                if !covered.isEmpty { batch.coveredRegions.append(contentsOf: covered) }
                            }
                        }
                    }
                }
            }
        }
        batch.coverageDone = end
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

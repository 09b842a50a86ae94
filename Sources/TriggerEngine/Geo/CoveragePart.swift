/// The regions holding some of a batch's ordered rows, as one thread found them
/// (`RegionCoverage.cover`): the runs of slots it took, one count per slot in
/// that order, and the regions of those slots one after another.
///
/// Each thread fills a part of its own, so the hot loop writes no memory another
/// thread writes; `RegionCoverage.merge` then files the parts under the rows.
struct CoveragePart: Sendable {
    /// The slots (positions in the batch's `coverageKeys`) covered, in the order taken.
    var ranges: [Range<Int>] = []
    /// Per slot of `ranges`, how many regions hold its row.
    var counts: [Int32] = []
    /// The regions holding each slot's row, slot after slot.
    var regions: [Int32] = []
}

import Foundation

/// One batch's coverage shared out between the two threads of a pipelined run.
///
/// The monitor thread, when the batch reaches it, takes runs of its slots
/// (`chunk` at a time) until none are left, then waits for any other thread
/// still testing a run it took (`complete`). The reader thread, once it has
/// read and handed over the next batch, takes runs too (`work`) if any are
/// left. Whichever thread has time does the tests, so the two stay about
/// equally busy without any tuning, and batches can be large (long runs in
/// spatial order, which is what keeps the polygons' tables in cache).
///
/// `@unchecked Sendable`: `keys` and `points` are read by threads testing runs
/// they took, and handed back to the batch (emptied here) only by `complete`
/// once no thread is testing and every slot is taken; `next`, `testing` and
/// `parts` are read and written only under `condition`'s lock.
final class BatchCoverageJob: @unchecked Sendable {
    /// The batch's rows worth testing, in spatial order, and their positions.
    private(set) var keys: [UInt64]
    private(set) var points: [(x: Double, y: Double)]
    /// How many slots the batch has (`keys` is emptied by `complete`).
    private let slotCount: Int
    private let chunk: Int
    private let condition = NSCondition()
    private var next = 0
    /// Threads between their first run taken and their part filed.
    private var testing = 0
    private var parts: [CoveragePart] = []

    /// Takes the ordered keys and points out of `batch` (see `RegionCoverage.orderCoverage`).
    /// - Parameter chunk: slots taken at a time: small enough for the threads to
    ///   finish together, large enough for the lock to cost nothing.
    init(taking batch: inout FixBatch, chunk: Int = 8_192) {
        keys = batch.coverageKeys
        points = batch.coveragePoints
        slotCount = keys.count
        batch.coverageKeys = []
        batch.coveragePoints = []
        self.chunk = max(1, chunk)
    }

    /// Tests runs of slots with `coverage` (this thread's own) until none are
    /// left, then files what it found; returns at once when none are left to
    /// take. Any thread, any number of times.
    func work(with coverage: RegionCoverage) {
        guard var slots = claim(joining: true) else { return }
        var part = CoveragePart()
        keys.withUnsafeBufferPointer { keys in
            points.withUnsafeBufferPointer { points in
                while true {
                    coverage.cover(slots, keys: keys, points: points, into: &part)
                    guard let more = claim(joining: false) else { break }
                    slots = more
                }
            }
        }
        condition.lock()
        parts.append(part)
        testing -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next run of slots nobody has taken, or `nil`; `joining` counts the
    /// caller among the threads testing when it gets one.
    private func claim(joining: Bool) -> Range<Int>? {
        condition.lock()
        defer { condition.unlock() }
        guard next < slotCount else { return nil }
        if joining { testing += 1 }
        let slots = next..<min(next + chunk, slotCount)
        next = slots.upperBound
        return slots
    }

    /// Tests what is left with `coverage` (`work(with:)`), waits until every
    /// other thread has filed the runs it took, then fills `batch`'s coverage
    /// from the parts and gives the keys and points back to it, for the next
    /// batch read into it to reuse. Once per job.
    func complete(with coverage: RegionCoverage, into batch: inout FixBatch) {
        work(with: coverage)
        condition.lock()
        while testing > 0 { condition.wait() }
        let parts = self.parts
        // Every slot is taken and nobody is testing: a late `work` call finds
        // nothing to take and never reads the keys or points again.
        batch.coverageKeys = keys
        batch.coveragePoints = points
        keys = []
        points = []
        self.parts = []
        condition.unlock()
        RegionCoverage.merge(parts, keys: batch.coverageKeys, into: &batch)
    }
}

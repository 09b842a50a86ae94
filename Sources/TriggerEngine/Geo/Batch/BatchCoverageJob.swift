import Foundation

/// One batch's coverage shared out between the two threads of a pipelined run.
///
/// The reader thread orders a batch, hands the batch over, then takes runs of
/// its slots (`chunk` at a time) until none are left; the monitor thread, when
/// the batch reaches it, takes runs too, then waits for both parts. Whichever
/// thread has time does the tests, so the two stay about equally busy without
/// any tuning, and batches can be large (long runs in spatial order, which is
/// what keeps the polygons' tables in cache).
///
/// `@unchecked Sendable`: `keys` and `points` are never changed after `init`;
/// `next` and `parts` are read and written only under `condition`'s lock.
final class BatchCoverageJob: @unchecked Sendable {
    /// The batch's rows worth testing, in spatial order, and their positions.
    let keys: [UInt64]
    let points: [(x: Double, y: Double)]
    private let chunk: Int
    private let condition = NSCondition()
    private var next = 0
    private var parts: [CoveragePart] = []

    /// Takes the ordered keys and points out of `batch` (see `RegionCoverage.orderCoverage`).
    /// - Parameter chunk: slots taken at a time: small enough for the threads to
    ///   finish together, large enough for the lock to cost nothing.
    init(taking batch: inout FixBatch, chunk: Int = 8_192) {
        keys = batch.coverageKeys
        points = batch.coveragePoints
        batch.coverageKeys = []
        batch.coveragePoints = []
        self.chunk = max(1, chunk)
    }

    /// Tests runs of slots with `coverage` (this thread's own) until none are
    /// left, then files what it found. Each of the two threads calls it once.
    func work(with coverage: RegionCoverage) {
        var part = CoveragePart()
        keys.withUnsafeBufferPointer { keys in
            points.withUnsafeBufferPointer { points in
                while let slots = claim() { coverage.cover(slots, keys: keys, points: points, into: &part) }
            }
        }
        condition.lock()
        parts.append(part)
        condition.broadcast()
        condition.unlock()
    }

    /// The next run of slots nobody has taken, or `nil`.
    private func claim() -> Range<Int>? {
        condition.lock()
        defer { condition.unlock() }
        guard next < keys.count else { return nil }
        let slots = next..<min(next + chunk, keys.count)
        next = slots.upperBound
        return slots
    }

    /// Waits until `workers` calls of `work(with:)` have finished, then fills
    /// `batch`'s coverage from their parts.
    func finish(workers: Int, into batch: inout FixBatch) {
        condition.lock()
        while parts.count < workers { condition.wait() }
        let parts = self.parts
        condition.unlock()
        RegionCoverage.merge(parts, keys: keys, into: &batch)
    }
}

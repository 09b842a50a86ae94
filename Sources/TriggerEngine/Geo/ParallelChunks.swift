import Foundation

/// Independent work items spread over the cores in contiguous chunks of about
/// equal weight, each chunk with a GEOS context of its own (GEOS contexts belong
/// to one thread at a time).
enum ParallelChunks {
    /// Below this total weight one thread does it all: starting threads costs more.
    static let minimumWeight = 50_000

    /// The result of `body` for each index in `0..<count`, in order; a failing
    /// item's error is in its slot and does not stop the others.
    /// - Complexity: the work of `body` over all items, divided over
    ///   `activeProcessorCount` threads.
    static func map<Value: Sendable>(count: Int, weight: (Int) -> Int,
                                     _ body: @escaping @Sendable (Int, GEOSContext) throws(DataError) -> Value) -> [Result<Value, DataError>] {
        let weights = (0..<count).map(weight)
        let total = weights.reduce(0, +)
        let workers = total < minimumWeight ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        // Chunk boundaries at equal shares of the weight.
        var bounds = [0]
        var sum = 0
        for (index, item) in weights.enumerated() {
            sum += item
            if bounds.count < workers && sum * workers >= total * bounds.count { bounds.append(index + 1) }
        }
        while bounds.count <= workers { bounds.append(count) }
        bounds[workers] = count
        let chunks = bounds
        let slots = ResultSlots<Value>(count: count)
        defer { slots.deallocate() }
        let chunk = { @Sendable (worker: Int) in
            let context = GEOSContext()
            for index in chunks[worker]..<chunks[worker + 1] {
                do throws(DataError) {
                    slots.store(.success(try body(index, context)), at: index)
                } catch {
                    slots.store(.failure(error), at: index)
                }
            }
        }
        if workers == 1 { chunk(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: chunk) }
        return slots.results()
    }
}

/// One slot per item, written by exactly one worker and read after all have finished.
///
/// `@unchecked Sendable`: workers write disjoint slots (their own index range) and
/// nothing reads a slot until `concurrentPerform` has returned, which orders the
/// writes before the reads.
private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Result<Value, DataError>?>
    private let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: nil, count: count)
    }

    func store(_ result: Result<Value, DataError>, at index: Int) { storage[index] = result }

    /// Every slot's result (all are filled once the workers are done).
    func results() -> [Result<Value, DataError>] { (0..<count).map { storage[$0]! } }

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}

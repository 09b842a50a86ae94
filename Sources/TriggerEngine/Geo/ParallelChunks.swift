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
        chunks(count: count, weight: weight) { range -> [Result<Value, DataError>] in
            let context = GEOSContext()
            return range.map { index in Result { () throws(DataError) in try body(index, context) } }
        }.flatMap { $0 }
    }

    /// Chunks per core when there are several: the cores take them as they
    /// come free, so one whose chunks run slow (items heavier than their weight
    /// says, a core the host is busier on) does not leave the others idle at
    /// the end. With one chunk per core, building the hard benchmark's index
    /// left a core idle for a tenth of the time.
    static let chunksPerCore = 8

    /// `body`'s result for each chunk of `0..<count` (contiguous ranges of about
    /// equal weight, in order; a few per core).
    static func chunks<Value: Sendable>(count: Int, weight: (Int) -> Int,
                                        _ body: @escaping @Sendable (Range<Int>) -> Value) -> [Value] {
        let weights = (0..<count).map(weight)
        let total = weights.reduce(0, +)
        let cores = total < minimumWeight ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        let pieces = cores == 1 ? 1 : min(count, cores * chunksPerCore)
        // Chunk boundaries at equal shares of the weight.
        var bounds = [0]
        var sum = 0
        for (index, item) in weights.enumerated() {
            sum += item
            if bounds.count < pieces && sum * pieces >= total * bounds.count { bounds.append(index + 1) }
        }
        while bounds.count <= pieces { bounds.append(count) }
        bounds[pieces] = count
        let ranges = (0..<pieces).map { bounds[$0]..<bounds[$0 + 1] }
        if pieces == 1 { return [body(ranges[0])] }
        let slots = ResultSlots<Value>(count: pieces)
        defer { slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in slots.store(body(ranges[piece]), at: piece) }
        return slots.results()
    }
}

/// Where workers write their disjoint parts of one buffer (a file read in
/// parts, the index's tables), shared by them.
///
/// `@unchecked Sendable`: each worker writes only its own piece's range of the
/// buffer, and nothing reads it until `concurrentPerform` has returned.
struct CopyTarget<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    init(_ base: UnsafeMutablePointer<Element>) { self.base = base }
}

/// One slot per chunk, written by exactly one worker and read after all have finished.
///
/// `@unchecked Sendable`: each worker writes its own slot, and
/// nothing reads a slot until `concurrentPerform` has returned, which orders the
/// writes before the reads.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: nil, count: count)
    }

    func store(_ result: Value, at index: Int) { storage[index] = result }

    /// Every slot's result (all are filled once the workers are done).
    func results() -> [Value] { (0..<count).map { storage[$0]! } }

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}

import Foundation

/// A bounded hand-over of parsed batches from the reader thread to the monitor
/// thread of `GeofenceRun`, plus the way back for empty batches, so that two
/// batches are alive at a time whatever the log's size.
///
/// `@unchecked Sendable`: every stored property is read and written only while
/// holding `condition`'s lock; the batches themselves are values (arrays of plain
/// numbers and strings) that change hands, never shared.
final class BatchChannel: @unchecked Sendable {
    enum Message {
        case batch(FixBatch)
        case end
        case failure(any Error)
    }

    private let condition = NSCondition()
    private var full: [Message] = []
    private var empty: [FixBatch] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        empty = Array(repeating: FixBatch(), count: capacity)
    }

    /// Reader side: an empty batch to fill, or `nil` when the consumer has stopped.
    func takeEmpty() -> FixBatch? {
        condition.lock()
        defer { condition.unlock() }
        while empty.isEmpty && !cancelled { condition.wait() }
        if cancelled { return nil }
        return empty.removeLast()
    }

    /// Reader side: hands over a filled batch, the end, or a failure.
    func send(_ message: Message) {
        changing { full.append(message) }
    }

    /// Runs `change` under the lock and wakes the other side.
    private func changing(_ change: () -> Void) {
        condition.lock()
        change()
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer side: the next message, in order.
    func receive() -> Message {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty { condition.wait() }
        return full.removeFirst()
    }

    /// Consumer side: gives a processed batch back for reuse.
    func recycle(_ batch: FixBatch) {
        changing { empty.append(batch) }
    }

    /// Consumer side: stops the reader at its next batch.
    func cancel() {
        changing { cancelled = true }
    }
}

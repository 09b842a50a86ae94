import Foundation

/// A bounded hand-over of filled batches from a producer thread to the calling
/// thread, plus the way back for emptied batches, so that `capacity` batches are
/// alive at a time however much is read. `pipeline` runs the two sides:
/// `GeofenceRun` parses a location log while it monitors, and a center restart
/// decodes stored rows while it rebuilds its dispatcher.
///
/// `@unchecked Sendable`: every stored property is read and written only while
/// holding `condition`'s lock; the batches themselves are values that change
/// hands, never shared.
final class BatchChannel<Batch: Sendable>: @unchecked Sendable {
    enum Message {
        case batch(Batch)
        case end
        case failure(any Error)
    }

    /// Thrown inside a producer whose consumer has stopped; never reaches a caller.
    struct Stopped: Error {}

    private let condition = NSCondition()
    private var full: [Message] = []
    private var empty: [Batch] = []
    private var cancelled = false

    init(capacity: Int, empty batch: Batch) {
        empty = Array(repeating: batch, count: capacity)
    }

    /// Runs `produce` on a thread of its own and `consume` on the calling
    /// thread, for each batch in the order produced. The producer takes empty
    /// batches with `takeEmpty()` and hands them over with `send(.batch(_:))`;
    /// returning ends the stream, throwing fails it. `consume` may change the
    /// batch (hand buffers back into it); it returns to the producer as left.
    /// Returns (or rethrows what either side threw) only once the producer
    /// thread has finished.
    static func pipeline(capacity: Int, empty batch: Batch, produce: @escaping @Sendable (BatchChannel) throws -> Void,
                         consume: (inout Batch) throws -> Void) throws {
        let channel = BatchChannel(capacity: capacity, empty: batch)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                try produce(channel)
                channel.send(.end)
            } catch {
                channel.send(.failure(error))
            }
        }
        thread.stackSize = 1 << 22
        thread.start()
        defer {
            channel.cancel()
            done.wait()
        }
        while true {
            switch channel.receive() {
            case .batch(var batch):
                // The batch comes back as the consumer left it: buffers it
                // grew or handed over are reused by the producer, not faulted in anew.
                try consume(&batch)
                channel.recycle(batch)
            case .end:
                return
            case .failure(let error):
                throw error
            }
        }
    }

    /// Producer side: an empty batch to fill, or `nil` when the consumer has stopped.
    func takeEmpty() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while empty.isEmpty && !cancelled { condition.wait() }
        if cancelled { return nil }
        return empty.removeLast()
    }

    /// Producer side: hands over a filled batch, the end, or a failure.
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
    func recycle(_ batch: Batch) {
        changing { empty.append(batch) }
    }

    /// Consumer side: stops the producer at its next batch.
    func cancel() {
        changing { cancelled = true }
    }

    /// Whether the consumer has stopped (it has finished or failed): a producer
    /// waiting for input can give up (`LineReader.stopWaiting(when:)`).
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
}

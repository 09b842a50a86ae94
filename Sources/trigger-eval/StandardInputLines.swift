import Foundation
import Synchronization

/// Standard input as batches of numbered lines, read and parsed on a thread of
/// its own: a blocking `read` must not hold one of the cooperative pool's
/// threads, parsing there overlaps with the work on the lines before, and a
/// batch (everything one read brought) lets `run` group-commit the commands
/// that arrived together. At most `maximumQueued` batches wait to be taken, so
/// a fast writer is slowed down rather than buffered without bound.
final class StandardInputLines<Parsed: Sendable>: Sendable {
    /// One line: its number (from 1) and what `parse` made of its bytes (without
    /// the newline), or of `nil` for a line longer than `maximumLineLength`.
    struct Line: Sendable {
        var number: Int
        var parsed: Parsed
    }

    let batches: AsyncStream<[Line]>
    private let continuation: AsyncStream<[Line]>.Continuation
    private let slots = DispatchSemaphore(value: maximumQueuedBatches)

    /// Starts reading `descriptor`, parsing each line with `parse` on the reading thread.
    init(descriptor: Int32 = 0, parse: @escaping @Sendable (Data?) -> Parsed) {
        (batches, continuation) = AsyncStream.makeStream(of: [Line].self)
        let thread = Thread { [self] in read(descriptor, parse) }
        thread.start()
    }

    /// Called once a batch was handled: makes room for the reader.
    func batchHandled() { slots.signal() }

    private func read(_ descriptor: Int32, _ parse: (Data?) -> Parsed) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var partial: [UInt8] = []
        var tooLong = false
        var number = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var batch: [Line] = []
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                number += 1
                if tooLong || partial.count + index - start > maximumInputLineLength {
                    batch.append(Line(number: number, parsed: parse(nil)))
                } else {
                    partial += buffer[start..<index]
                    batch.append(Line(number: number, parsed: parse(Data(partial))))
                }
                partial.removeAll(keepingCapacity: true)
                tooLong = false
                start = index + 1
            }
            if !tooLong {
                partial += buffer[start..<count]
                if partial.count > maximumInputLineLength {
                    tooLong = true
                    partial.removeAll()
                }
            }
            if !batch.isEmpty { send(batch) }
        }
        if tooLong || !partial.isEmpty {
            send([Line(number: number + 1, parsed: parse(tooLong ? nil : Data(partial)))])
        }
        continuation.finish()
    }

    private func send(_ batch: [Line]) {
        slots.wait()
        continuation.yield(batch)
    }
}

/// Longer input lines are refused: no command is that long, and a reader must
/// not grow a buffer without bound on input without newlines.
let maximumInputLineLength = 1 << 20
/// How many batches of lines may wait to be handled.
private let maximumQueuedBatches = 8

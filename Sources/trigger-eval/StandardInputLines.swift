import Foundation
import Synchronization

/// Standard input as batches of numbered lines, read on a thread of its own:
/// a blocking `read` must not hold one of the cooperative pool's threads, and
/// a batch (everything one read brought) lets `run` group-commit the commands
/// that arrived together. At most `maximumQueued` batches wait to be taken, so
/// a fast writer is slowed down rather than buffered without bound.
final class StandardInputLines: Sendable {
    /// One line: its number (from 1) and its bytes without the newline, or
    /// `nil` for a line longer than `maximumLineLength` (skipped whole).
    struct Line: Sendable {
        var number: Int
        var bytes: Data?
    }

    /// Longer lines are refused: no command is that long, and a reader must not
    /// grow a buffer without bound on input without newlines.
    static let maximumLineLength = 1 << 20
    static let maximumQueued = 8

    let batches: AsyncStream<[Line]>
    private let continuation: AsyncStream<[Line]>.Continuation
    private let slots = DispatchSemaphore(value: StandardInputLines.maximumQueued)

    init(descriptor: Int32 = 0) {
        (batches, continuation) = AsyncStream.makeStream(of: [Line].self)
        let thread = Thread { [self] in read(descriptor) }
        thread.start()
    }

    /// Called once a batch was handled: makes room for the reader.
    func batchHandled() { slots.signal() }

    private func read(_ descriptor: Int32) {
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
                if tooLong || partial.count + index - start > Self.maximumLineLength {
                    batch.append(Line(number: number, bytes: nil))
                } else {
                    partial += buffer[start..<index]
                    batch.append(Line(number: number, bytes: Data(partial)))
                }
                partial.removeAll(keepingCapacity: true)
                tooLong = false
                start = index + 1
            }
            if !tooLong {
                partial += buffer[start..<count]
                if partial.count > Self.maximumLineLength {
                    tooLong = true
                    partial.removeAll()
                }
            }
            if !batch.isEmpty { send(batch) }
        }
        if tooLong || !partial.isEmpty {
            send([Line(number: number + 1, bytes: tooLong ? nil : Data(partial))])
        }
        continuation.finish()
    }

    private func send(_ batch: [Line]) {
        slots.wait()
        continuation.yield(batch)
    }
}

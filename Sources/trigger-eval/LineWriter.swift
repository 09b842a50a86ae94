import Foundation
import Synchronization
@_spi(Internals) import TriggerEngine

/// Standard output shared by `run`'s command replies and its deliveries: whole
/// lines, each written with one `write` under a lock (so lines never mix), and
/// out of the process when `write` returns: nothing is buffered in it.
final class LineWriter: Sendable {
    private let lock = Mutex(())
    private let descriptor: Int32

    init(descriptor: Int32 = 1) { self.descriptor = descriptor }

    /// Writes `lines`, each followed by a newline.
    /// - Throws: `InputFileError` when standard output is closed (a reader that went away).
    func write(_ lines: [String]) throws {
        guard !lines.isEmpty else { return }
        var text = lines.joined(separator: "\n") + "\n"
        try lock.withLock { _ in
            try text.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else {
                        throw InputFileError(path: "-", reason: "cannot write to standard output: " + String(cString: strerror(errno)))
                    }
                    offset += written
                }
            }
        }
    }
}

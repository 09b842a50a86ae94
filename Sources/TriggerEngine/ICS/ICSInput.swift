#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Opens a calendar for reading without hanging on a FIFO nobody writes to.
///
/// Opening a FIFO for reading blocks until a writer opens it, for ever if none
/// does. So a FIFO is opened without blocking and read once something arrives
/// (data, or a writer that came and went); when nothing arrives within the
/// wait, that is an `InputFileError` (exit 66) naming the FIFO. Files, standard
/// input and pipes that already have data (`<(curl …)`) read as usual.
enum ICSInput {
    /// A reader of `path`; a FIFO waits `fifoWait` seconds at most for data.
    static func lineReader(path: String, fifoWait: Double) throws(InputFileError) -> LineReader {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else {
            return try LineReader(path: path)
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw InputFileError(path: path, reason: String(cString: strerror(errno))) }
        // A wait that is not a number of seconds (NaN, negative) waits not at all.
        let wait = fifoWait.isFinite ? min(max(fifoWait, 0), 86_400) : 0
        let deadline = Date(timeIntervalSinceNow: wait)
        while true {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // POLLIN once data arrives, POLLHUP once a writer closed: either way,
            // reading will not wait for a writer that never comes.
            let ready = poll(&request, 1, Int32(max(0, min(100, deadline.timeIntervalSinceNow * 1000))))
            if ready > 0 { break }
            if ready < 0 && errno != EINTR {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw InputFileError(path: path, reason: reason)
            }
            if Date() >= deadline {
                close(descriptor)
                throw InputFileError(path: path, reason: "is a FIFO and nothing was written to it within \(wait) s (no writer?)")
            }
        }
        // From here reads may block: a writer is there, or has been.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return LineReader(descriptor: descriptor, path: path)
    }
}

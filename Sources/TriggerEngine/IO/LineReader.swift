#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or standard input line by line, in large blocks, without
/// copying lines: the fast path under every line-oriented reader (CSV, NDJSON,
/// batch queries). Memory stays at one block plus the longest line.
///
/// Lines end at `\n`; a `\r` before it is dropped; a last line without `\n`
/// counts. The reader owns its file descriptor and closes it (never stdin).
package final class LineReader {
    /// The path as given (`-` for standard input).
    package let path: String
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var isExhausted = false
    /// The number of the line last returned (1-based).
    package private(set) var lineNumber = 0
    /// Whether a read can wait for input: anything but a regular file.
    private let canWait: Bool
    /// Asked while a read waits for input (see `stopWaiting(when:)`).
    private var isStopped: (@Sendable () -> Bool)?

    /// Opens `path`, `-` meaning standard input.
    /// - Throws: `InputFileError` when the file is missing or unreadable.
    package init(path: String, blockSize: Int = 1 << 20) throws(InputFileError) {
        self.path = path
        if path == "-" {
            descriptor = 0
            closesDescriptor = false
            canWait = !Self.isRegularFile(0)
        } else {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw InputFileError(path: path, reason: String(cString: strerror(errno))) }
            var status = stat()
            let known = fstat(fd, &status) == 0
            if known, (status.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw InputFileError(path: path, reason: "is a directory")
            }
            canWait = !(known && (status.st_mode & S_IFMT) == S_IFREG)
            descriptor = fd
            closesDescriptor = true
        }
        buffer = .allocate(byteCount: max(blockSize, 4096), alignment: 16)
    }

    /// Reads a descriptor the caller opened (a FIFO it waited on, say); the
    /// reader owns it from here and closes it.
    package init(descriptor: Int32, path: String, blockSize: Int = 1 << 20) {
        self.path = path
        self.descriptor = descriptor
        closesDescriptor = true
        canWait = !Self.isRegularFile(descriptor)
        buffer = .allocate(byteCount: max(blockSize, 4096), alignment: 16)
    }

    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// From now on, a read that waits for input (a pipe, a FIFO, a terminal)
    /// asks `isStopped` every 50 ms and, once it says so, ends with an
    /// `InputFileError` instead of waiting on: a thread reading a quiet log for
    /// a run that has already failed must not hold that run until the log
    /// next has a line or ends. Reads of regular files never wait and never ask.
    package func stopWaiting(when isStopped: @escaping @Sendable () -> Bool) {
        self.isStopped = isStopped
    }

    deinit {
        buffer.deallocate()
        if closesDescriptor { close(descriptor) }
    }

    /// The location of the line last returned, for error messages.
    package var location: InputLocation { InputLocation(file: path, line: lineNumber) }

    /// Calls `body` with each line's bytes (valid only during the call) until the
    /// input ends or `body` throws.
    /// - Throws: `InputFileError` on a read error, or what `body` throws.
    package func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while let line = try nextLine() {
            try body(line)
        }
    }

    /// Everything not yet read, to the end of the input: for readers that need a
    /// whole document (a scenario's JSON). Works on pipes and FIFOs, where
    /// Foundation's `Data(contentsOf:)` fails with a misleading permission error.
    /// - Throws: `InputFileError` on a read error.
    /// - Complexity: O(bytes read); memory holds them all.
    package func readToEnd() throws(InputFileError) -> [UInt8] {
        // Each refill reads once more, growing the block whenever it is full.
        while !isExhausted { try refill() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let rest = Array(UnsafeBufferPointer(start: base + start, count: end - start))
        start = end
        return rest
    }

    /// The next line, valid until the next call; `nil` at the end of the input.
    package func nextLine() throws(InputFileError) -> UnsafeBufferPointer<UInt8>? {
        try nextLine(stoppingToWait: false)
    }

    /// Whether the last `nextLine(stoppingToWait: true)` returned nil because
    /// it would have waited for input, rather than at the end of the input.
    package private(set) var stoppedToWait = false

    /// `nextLine()`; with `stoppingToWait`, nil too (and `stoppedToWait` set)
    /// where it would wait: no whole line is buffered and the input, a pipe or
    /// a terminal, has nothing to read within 2 ms (a regular file never waits).
    ///
    /// A reader that answers lines in rounds asks this way for each line but
    /// a round's first: a client that writes a line and waits for its answer
    /// must get it, not wait for a round to fill. The short wait keeps rounds
    /// full behind a fast writer (`zcat log.gz |`), whose pipe runs dry for
    /// microseconds at a time. The input is only asked when the buffer holds no
    /// whole line, so lines from a file cost what they did.
    package func nextLine(stoppingToWait: Bool) throws(InputFileError) -> UnsafeBufferPointer<UInt8>? {
        stoppedToWait = false
        while true {
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if start < end, let newline = memchr(base + start, 0x0A, end - start) {
                let stop = newline.assumingMemoryBound(to: UInt8.self) - base
                let line = trimmed(base + start, stop - start)
                start = stop + 1
                lineNumber += 1
                return line
            }
            if isExhausted {
                guard start < end else { return nil }
                let line = trimmed(base + start, end - start)
                start = end
                lineNumber += 1
                return line
            }
            if stoppingToWait && inputIsQuiet(milliseconds: 2) {
                stoppedToWait = true
                return nil
            }
            try refill()
        }
    }

    /// Whether the descriptor has nothing to read (and no end of input to
    /// report) within `milliseconds`.
    private func inputIsQuiet(milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready >= 0 { return ready == 0 }
            // Interrupted: ask again (a fresh wait); any other failure shows up in the read itself.
            if errno != EINTR { return false }
        }
    }

    private func trimmed(_ pointer: UnsafeMutablePointer<UInt8>, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        var count = count
        if count > 0, pointer[count - 1] == 0x0D { count -= 1 }
        return UnsafeBufferPointer(start: pointer, count: count)
    }

    /// Moves the unread tail to the front, grows the block if one line fills it,
    /// and reads more.
    private func refill() throws(InputFileError) {
        let pending = end - start
        if start > 0 {
            if pending > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending) }
            start = 0
            end = pending
        }
        if end == buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = larger
        }
        if canWait, let isStopped {
            while inputIsQuiet(milliseconds: 50) {
                if isStopped() { throw InputFileError(path: path, reason: "reading stopped: the run reading it has ended") }
            }
        }
        while true {
            let count = read(descriptor, buffer.baseAddress! + end, buffer.count - end)
            if count > 0 { end += count; return }
            if count == 0 { isExhausted = true; return }
            if errno == EINTR { continue }
            throw InputFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

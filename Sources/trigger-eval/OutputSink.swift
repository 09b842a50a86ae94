import Foundation
@_spi(Internals) import TriggerEngine

/// Where a subcommand's machine output goes: standard output or `--output FILE`,
/// buffered, and never left half-written.
///
/// A file is written under a temporary name in the same folder and renamed into
/// place by `commit()`. A path that names something other than a regular file
/// (`/dev/null`, a FIFO, a terminal) is written in place: renaming over it
/// would replace the device with a file (as root, `-o /dev/null` once did).
/// When standard output is a regular file (`> out.ndjson`), a failed run
/// truncates it back to where this run started. A pipe or device cannot be
/// taken back; commands that can fail late validate their input first.
final class OutputSink {
    private let descriptor: Int32
    private let finalPath: String?
    private let temporaryPath: String?
    /// Where stdout stood when the run began, when stdout is a regular file.
    private let stdoutStart: off_t?
    /// Whether `descriptor` was opened here for a device or FIFO (closed when finished).
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var isFinished = false
    /// The temporary file's entry in `TemporaryFileCleanup` (removed if a signal ends the run).
    private var cleanupSlot: Int?
    /// Bytes written to the descriptor, and how many of them (from the start)
    /// the kernel was asked to write back (`startWriteback()`).
    private var bytesWritten = 0, writebackRequested = 0
    /// How many times the kernel accepted a request to start writeback (for tests).
    private(set) var writebacksStarted = 0

    /// Opens the output: `nil` or `-` for standard output.
    /// - Throws: `InputFileError` when the output file cannot be created.
    init(path: String?) throws {
        buffer.reserveCapacity(1 << 16)
        var existing = stat()
        if let path, path != "-", stat(path, &existing) == 0, (existing.st_mode & S_IFMT) != S_IFREG {
            // Not a regular file: a directory is an error now, not after the run;
            // anything else (a device, a FIFO) is written in place.
            guard (existing.st_mode & S_IFMT) != S_IFDIR else { throw InputFileError(path: path, reason: "is a directory") }
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else {
                throw InputFileError(path: path, reason: "cannot open output: " + String(cString: strerror(errno)))
            }
            descriptor = fd
            finalPath = path
            temporaryPath = nil
            stdoutStart = nil
            ownsDescriptor = true
        } else if let path, path != "-" {
            let url = URL(fileURLWithPath: path)
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
            // Registered (and the handlers installed) before the file exists: a
            // signal between its creation and its registration left it behind.
            let slot = TemporaryFileCleanup.register(temporary)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                let reason = "cannot create output: " + String(cString: strerror(errno))
                TemporaryFileCleanup.unregister(slot)
                throw InputFileError(path: path, reason: reason)
            }
            descriptor = fd
            finalPath = path
            temporaryPath = temporary
            stdoutStart = nil
            ownsDescriptor = false
            cleanupSlot = slot
        } else {
            descriptor = 1
            finalPath = nil
            temporaryPath = nil
            ownsDescriptor = false
            var status = stat()
            if fstat(1, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                let position = lseek(1, 0, SEEK_CUR)
                stdoutStart = position >= 0 ? position : nil
            } else {
                stdoutStart = nil
            }
        }
    }

    deinit {
        if !isFinished { abandon() }
    }

    /// Appends a line (a newline is added).
    func writeLine(_ line: String) throws {
        var line = line
        line.withUTF8 { buffer.append(contentsOf: $0) }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends raw bytes. A buffer's worth or more goes out as it is, after
    /// what is buffered: a geofence run hands over its events 64 KB and more
    /// at a time, and copying them into the buffer first moved every byte
    /// of the output once more.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if bytes.count >= 1 << 16 {
            try flush()
            try writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out what is buffered.
    func flush() throws {
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to the descriptor.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw InputFileError(path: finalPath ?? "-", reason: "write failed: " + String(cString: strerror(errno)))
            }
            offset += written
        }
        bytesWritten += bytes.count
        if temporaryPath != nil && bytesWritten - writebackRequested >= Self.writebackStep { startWriteback() }
    }

    /// Written bytes after which the kernel is asked to start writing them to disk.
    static let writebackStep = 8 << 20

    /// Asks the kernel to start writing back what was written since the last
    /// call, and returns without waiting (PostgreSQL's `*_flush_after` does the
    /// same). Renaming the finished file over an existing one makes ext4 write
    /// back all its dirty pages first (`auto_da_alloc`, so that a crash leaves
    /// the old file or the new one): for the 80 MB of a hard benchmark run,
    /// 30-50 ms at the end with both cores idle. Started as the file grows,
    /// that writing overlaps the run. Advice only: a failure changes nothing.
    private func startWriteback() {
        #if os(Linux)
        if let syncFileRange = Self.syncFileRange,
           syncFileRange(descriptor, off_t(writebackRequested), off_t(bytesWritten - writebackRequested),
                         2 /* SYNC_FILE_RANGE_WRITE */) == 0 {
            writebacksStarted += 1
        }
        #endif
        writebackRequested = bytesWritten
    }

    #if os(Linux)
    /// `sync_file_range(2)`, which Glibc's Swift module leaves out (its header
    /// declares it only under `_GNU_SOURCE`), looked up once.
    private static let syncFileRange: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32).self)
    }()
    #endif

    /// Flushes and puts the output in place.
    func commit() throws {
        try flush()
        isFinished = true
        if ownsDescriptor { close(descriptor) }
        if let temporaryPath, let finalPath {
            close(descriptor)
            defer { TemporaryFileCleanup.unregister(cleanupSlot) }
            guard rename(temporaryPath, finalPath) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporaryPath)
                throw InputFileError(path: finalPath, reason: "cannot write output: \(reason)")
            }
        }
    }

    /// Discards the output: removes the temporary file, or truncates a
    /// redirected standard output back to where this run began.
    func abandon() {
        isFinished = true
        buffer.removeAll()
        if ownsDescriptor {
            close(descriptor)
        } else if let temporaryPath {
            close(descriptor)
            unlink(temporaryPath)
            TemporaryFileCleanup.unregister(cleanupSlot)
        } else if let stdoutStart {
            _ = ftruncate(1, stdoutStart)
        }
    }

    /// Runs `body` with a sink for `path`, committing when it returns and
    /// abandoning the output when it throws.
    static func writing<Result>(to path: String?, _ body: (OutputSink) async throws -> Result) async throws -> Result {
        let sink = try OutputSink(path: path)
        do {
            let result = try await body(sink)
            try sink.commit()
            return result
        } catch {
            sink.abandon()
            throw error
        }
    }
}

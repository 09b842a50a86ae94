import Foundation

/// The readers take a path (they stream, and report `FILE:LINE`), so each input
/// is written to a scratch file and read back from there: in `/dev/shm` when it
/// exists (memory, no disk), else the temporary folder. The name carries the
/// process and the thread, so tests running in parallel never share one.
enum FuzzScratchFile {
    /// Writes `bytes` to a scratch file ending in `suffix` (readers choose a
    /// format by extension), calls `body` with its path, and removes it.
    static func with<Result>(_ bytes: UnsafeRawBufferPointer, suffix: String, _ body: (String) throws -> Result) rethrows -> Result {
        let path = "\(folder)/trigger-fuzz-\(getpid())-\(pthread_self())\(suffix)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0, "cannot create the scratch file \(path)")
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            precondition(written > 0 || errno == EINTR, "cannot write the scratch file \(path)")
            if written > 0 { offset += written }
        }
        close(descriptor)
        defer { unlink(path) }
        return try body(path)
    }

    private static let folder: String = {
        if access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
        let temporary = NSTemporaryDirectory()
        return temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
    }()
}

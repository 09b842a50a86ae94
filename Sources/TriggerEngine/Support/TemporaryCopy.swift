import Foundation

/// Bytes given in memory, read by a reader that streams from a file: written
/// once to a temporary file (in `/dev/shm`, memory, where it exists), read,
/// and removed.
enum TemporaryCopy {
    /// Calls `body` with the path of a temporary file holding `data`.
    /// - Parameters:
    ///   - suffix: the file's extension with its dot (readers may go by it).
    ///   - name: what the bytes are called in the error when the copy fails.
    /// - Throws: `InputFileError` when the copy cannot be written, or what `body` throws.
    static func with<Result>(_ data: Data, suffix: String, name: String,
                             _ body: (String) throws -> Result) throws -> Result {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let copy = URL(fileURLWithPath: folder).appendingPathComponent("triggerengine-\(UUID().uuidString)\(suffix)")
        do {
            try data.write(to: copy)
        } catch {
            throw InputFileError(path: copy.path, reason: "cannot write a temporary copy of \(name): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: copy) }
        return try body(copy.path)
    }
}

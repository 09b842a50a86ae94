import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ParallelChunks {
    /// The bytes of a large regular file, read in two halves by two threads (the
    /// kernel's copy and the first touch of the pages, a tenth of loading 42 MB
    /// of regions, split between the cores); `nil` for anything else (standard
    /// input, a pipe, a small file, one that cannot be opened or changes size
    /// while read), which the caller reads the ordinary way, errors included.
    static func contents(ofRegularFile path: String, minimumSize: Int = 8 << 20) -> Data? {
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) >= minimumSize else {
            return nil
        }
        let size = Int(status.st_size)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        let target = CopyTarget(buffer)
        let complete = ResultSlots<Bool>(count: 2)
        defer { complete.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            var offset = half == 0 ? 0 : size / 2
            let end = half == 0 ? size / 2 : size
            while offset < end {
                let count = pread(descriptor, target.base + offset, end - offset, off_t(offset))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                offset += count
            }
            complete.store(offset == end, at: half)
        }
        // One byte more than the size means the file grew: read it the ordinary way.
        var probe: UInt8 = 0
        guard complete.results().allSatisfy({ $0 }), pread(descriptor, &probe, 1, off_t(size)) == 0 else {
            buffer.deallocate()
            return nil
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .custom { bytes, _ in bytes.deallocate() })
    }
}

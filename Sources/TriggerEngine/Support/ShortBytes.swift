#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Equality of short byte strings (device names, time fields) without a call.
///
/// The log readers compare a field with one they stored, once or twice a row,
/// a dozen bytes or so, where a call to `memcmp` is mostly its own overhead.
/// (On the hard geofence benchmark the difference was within the noise; the
/// two readers' comparisons share this one.)
enum ShortBytes {
    /// Whether two byte strings are the same: lengths, then bytes (empty
    /// buffers, whose base address may be `nil`, are equal to each other).
    @inline(__always)
    static func equal(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        if first.isEmpty { return true }
        return equal(first.baseAddress!, second.baseAddress!, count: first.count)
    }

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inline(__always)
    static func equal(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count > 32 { return memcmp(first, second, count) == 0 }
        if count >= 8 {
            // Words from the start, and the last word (overlapping the one before).
            let a = UnsafeRawPointer(first), b = UnsafeRawPointer(second)
            var difference: UInt64 = 0
            var offset = 0
            while offset + 8 <= count {
                difference |= a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            difference |= a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return difference == 0
        }
        var difference: UInt8 = 0
        for offset in 0..<count { difference |= first[offset] ^ second[offset] }
        return difference == 0
    }
}

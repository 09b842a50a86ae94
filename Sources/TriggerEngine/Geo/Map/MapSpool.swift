#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A map's records on disk while the run streams: an anonymous temporary file
/// (`tmpfile(3)`, removed by the system when closed or when the process ends,
/// so a crash leaves nothing behind), written through a buffer and read back
/// once, in order, when the map is drawn.
///
/// This is what keeps a map's memory constant in the number of fixes: tracks and
/// events go to disk as they come, and the SVG is written from here once the
/// extent of the data, and so the map's frame, is known.
final class MapSpool {
    private let file: UnsafeMutablePointer<FILE>
    /// `@exclusivity(unchecked)`: one thread writes (see `GeofenceMap`).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private var readBuffer: [UInt8] = []
    private var readPosition = 0
    private var reading = false
    /// The first failure, reported when the map is written (the observer hooks cannot throw).
    private(set) var failure: MapSpoolError?

    /// Opens a new temporary file.
    /// - Throws: `MapSpoolError` when the system cannot make one.
    init() throws(MapSpoolError) {
        guard let file = tmpfile() else { throw MapSpoolError("cannot create a temporary file: " + String(cString: strerror(errno))) }
        self.file = file
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        fclose(file)
    }

    private static let bufferSize = 1 << 18

    /// Appends a value's bytes (a trivial type: numbers and structs of numbers).
    @inline(__always)
    func append<Value: BitwiseCopyable>(_ value: Value) {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.bufferSize { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count && failure == nil {
            failure = MapSpoolError("cannot write the map's temporary file: " + String(cString: strerror(errno)))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Ends writing and starts reading from the beginning.
    /// - Throws: the first write failure.
    func rewind() throws(MapSpoolError) {
        flush()
        if let failure { throw failure }
        guard fflush(file) == 0, fseek(file, 0, SEEK_SET) == 0 else {
            throw MapSpoolError("cannot read back the map's temporary file: " + String(cString: strerror(errno)))
        }
        reading = true
        readBuffer = []
        readPosition = 0
    }

    /// Reads the next value, `nil` at the end of the file.
    /// - Throws: `MapSpoolError` on a read failure or a cut record.
    func next<Value: BitwiseCopyable>(_ type: Value.Type) throws(MapSpoolError) -> Value? {
        precondition(reading, "MapSpool.next before rewind")
        let size = MemoryLayout<Value>.size
        if readBuffer.count - readPosition < size {
            readBuffer.removeSubrange(0..<readPosition)
            readPosition = 0
            let want = Self.bufferSize
            let start = readBuffer.count
            readBuffer += repeatElement(0, count: want)
            let got = readBuffer.withUnsafeMutableBytes { fread($0.baseAddress! + start, 1, want, file) }
            readBuffer.removeLast(want - got)
            if got < want && ferror(file) != 0 {
                throw MapSpoolError("cannot read back the map's temporary file: " + String(cString: strerror(errno)))
            }
            if readBuffer.isEmpty { return nil }
            guard readBuffer.count >= size else { throw MapSpoolError("the map's temporary file ends inside a record") }
        }
        let value = readBuffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: readPosition, as: Value.self) }
        readPosition += size
        return value
    }
}

/// The map's temporary file could not be written or read back (a full disk, a
/// missing temporary folder): not a fault of the input.
public struct MapSpoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with the system's reason.
    public var message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { "map: \(message)" }
}

import Foundation

/// The second half of a large FeatureCollection parsed on a thread of its own
/// while the calling thread parses the first half (`GeoJSONScanner.tail`).
///
/// The split is a guess (`GeoJSONScanner.likelyFeatureStart`): the scanner's only
/// state between two features is its offset, so when the calling thread, going
/// feature by feature, arrives at exactly this start, this parse is the one it
/// would have made, and it takes it (a decline here is then the document's);
/// if it never arrives there, the guess was wrong and this parse is dropped.
/// Either way the answer is that of one pass over the bytes.
///
/// `@unchecked Sendable`: the bytes are only read, and stay valid until
/// `result()` has waited for the thread (the caller's duty: `finish()` before
/// the buffer goes); `outcome` is written by the thread before it signals `done`
/// and read only after waiting on it; `waited` and `taken` belong to the
/// calling thread.
final class GeoJSONTailParse: @unchecked Sendable {
    /// Where the tail's first feature starts.
    let start: Int
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<(features: [GeoJSONFeatureCollection.Feature], end: Int), GeoJSONScanner.Declined>?
    private var waited = false
    /// Whether the scanner arrived at `start` and took this parse.
    private(set) var taken = false

    /// Starts parsing at `start` on a new thread.
    init(_ bytes: UnsafePointer<UInt8>, count: Int, start: Int) {
        self.bytes = bytes
        self.count = count
        self.start = start
        let thread = Thread { [self] in
            var scanner = GeoJSONScanner(self.bytes, count: self.count)
            outcome = Result { () throws(GeoJSONScanner.Declined) in try scanner.features(from: self.start) }
            done.signal()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The tail's features and the offset after the array's closing bracket,
    /// once the thread is done.
    func result() throws(GeoJSONScanner.Declined) -> (features: [GeoJSONFeatureCollection.Feature], end: Int) {
        finish()
        taken = true
        guard let outcome else { throw GeoJSONScanner.Declined() }
        return try outcome.get()
    }

    /// Waits for the thread (once); after this the bytes are no longer read.
    func finish() {
        if waited { return }
        done.wait()
        waited = true
    }
}

import Foundation
import Synchronization

/// A large FeatureCollection's features array parsed in chunks by two threads,
/// from feature starts guessed at even steps through the bytes
/// (`GeoJSONScanner.likelyFeatureStart`), while the calling thread parses from
/// the document's start.
///
/// Each chunk's parse runs from its guessed start through the first feature
/// boundary that is another chunk's start, or through the array's closing
/// bracket. The scanner's only state between two features is its offset, so
/// when the calling thread, going feature by feature, arrives at exactly a
/// chunk's start, that chunk's parse is the one it would have made from there,
/// and so is the chunk its parse ends at, and so on: the answer is that of one
/// pass over the bytes (a decline in a chunk so reached is then the
/// document's). Chunks it never arrives at were wrong guesses and are dropped.
///
/// Chunks are taken in order, one at a time, by a helper thread and, once it
/// arrives at a chunk's start, by the calling thread: a thread on a core the
/// host keeps busier takes fewer. (Split in two fixed halves, the half on the
/// slower core of a shared machine finished 40 ms after the other.)
///
/// `@unchecked Sendable`: the bytes are only read and stay valid until
/// `finish()` has waited for the helper (the caller's duty); each chunk's slot
/// is written by the one thread that took it (`next` hands each number out
/// once) and read by the calling thread only after waiting for the helper
/// (`done`, then `helperFinished`, which the helper sets after its last write).
///
/// Both are atomics rather than a lock and a semaphore alone because
/// ThreadSanitizer must see the order too: on Linux `Mutex` locks with raw
/// futex calls and `DispatchSemaphore` signals through libdispatch's own
/// atomics, neither of which it models, and it reported the two sides of the
/// lock as a race.
final class GeoJSONChunkParse: @unchecked Sendable {
    /// Where each chunk's first feature starts: ascending, distinct.
    let starts: [Int]
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    /// The next chunk to take; `starts.count` or more when none is left or
    /// taking has stopped.
    private let next = Atomic(0)
    private let done = DispatchSemaphore(value: 0)
    /// Set by the helper (releasing) after its last slot write, read by the
    /// calling thread (acquiring) after `done`: the slots' publication.
    private let helperFinished = Atomic(false)
    private let slots: UnsafeMutablePointer<Result<GeoJSONScanner.Chunk, GeoJSONScanner.Declined>?>
    private var waited = false
    /// Whether the calling thread arrived at a chunk's start and took the chunks' parse.
    private(set) var taken = false

    /// Starts a helper thread taking chunks from `starts` (ascending, distinct
    /// offsets into the `count` bytes from `bytes`).
    init(_ bytes: UnsafePointer<UInt8>, count: Int, starts: [Int]) {
        self.bytes = bytes
        self.count = count
        self.starts = starts
        slots = .allocate(capacity: max(starts.count, 1))
        slots.initialize(repeating: nil, count: starts.count)
        // The helper holds the parse unretained: it needs it only until it
        // signals, and `deinit` waits for that signal (`finish()`). Retained,
        // the last reference could be the helper's, released a moment after
        // the signal with the parsed chunks still in the slots: under the
        // fuzzer that is memory alive after the input's callback returned, which
        // LeakSanitizer reports when only a tagged pointer reaches it (see the
        // Fuzzing article, "The async targets").
        let parse = Unmanaged.passUnretained(self)
        let done = self.done
        let thread = Thread {
            let parse = parse.takeUnretainedValue()
            parse.parseChunks()
            parse.helperFinished.store(true, ordering: .releasing)
            done.signal()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    deinit {
        finish()
        slots.deinitialize(count: starts.count)
        slots.deallocate()
    }

    /// Guessed feature starts at `pieces - 1` even steps through the bytes
    /// (fewer when guesses coincide or none is found).
    static func guessedStarts(_ bytes: UnsafePointer<UInt8>, count: Int, pieces: Int) -> [Int] {
        var starts: [Int] = []
        for piece in 1..<max(pieces, 1) {
            let after = max(count / pieces * piece, (starts.last ?? 0) + 1)
            guard let start = GeoJSONScanner.likelyFeatureStart(bytes, count: count, after: after) else { break }
            starts.append(start)
        }
        return starts
    }

    /// Takes and parses chunks until none is left.
    private func parseChunks() {
        while let chunk = take() {
            var scanner = GeoJSONScanner(bytes, count: count)
            slots[chunk] = Result { () throws(GeoJSONScanner.Declined) in try scanner.chunk(from: chunk, of: starts) }
        }
    }

    /// A chunk no other call has taken, or nil. Every call adds one, so the
    /// numbers handed out are distinct; past `starts.count` they are refused.
    private func take() -> Int? {
        let chunk = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return chunk < starts.count ? chunk : nil
    }

    /// The features from chunk `first`'s start on and the offset after the
    /// array's closing bracket, for a scanner that arrived at exactly that
    /// start: helps with the chunks left, waits for the helper, then joins the
    /// chunks each ends at.
    func features(from first: Int) throws(GeoJSONScanner.Declined) -> (features: [GeoJSONFeatureCollection.Feature], end: Int) {
        parseChunks()
        finish()
        taken = true
        var features: [GeoJSONFeatureCollection.Feature] = []
        var chunk = first
        while true {
            // Every chunk was taken and parsed before the helper finished.
            guard let parsed = slots[chunk] else { throw GeoJSONScanner.Declined() }
            let part = try parsed.get()
            features += part.features
            switch part.end {
            case .chunk(let following): chunk = following
            case .arrayEnd(let end): return (features, end)
            }
        }
    }

    /// Stops taking chunks and waits for the helper (once); after this the
    /// bytes are no longer read.
    func finish() {
        if waited { return }
        // Past the last chunk, so that the helper takes no more (a chunk it
        // took already is parsed before it signals). Only ever raised: `max`.
        _ = next.max(starts.count, ordering: .relaxed)
        done.wait()
        let finished = helperFinished.load(ordering: .acquiring)
        precondition(finished, "the helper signals only after it has finished")
        waited = true
    }
}

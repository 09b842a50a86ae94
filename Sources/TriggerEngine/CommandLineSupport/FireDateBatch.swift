import Foundation

/// `trigger-eval next --batch`: query lines answered on every core, written in
/// line order.
///
/// Lines are read in rounds (`linesPerRound`); a round's lines are cut into one
/// contiguous run per core, of about equal bytes (`ParallelChunks`), and each run
/// is answered on its own thread with a compiled query of its own: a line that is
/// the last scanned line with other `after` and `count` values is read by filling
/// that line's holes (`QueryLineTemplate`) and moves the query on; a line whose
/// trigger an earlier line compiled takes that line's query from a cache
/// (`QueryLineCache`); a line asking about the last trigger in other bytes moves
/// it on after a scan (`FireDateQuery.reask`); anything else compiles a new one. No line's
/// answer depends on another's, so the output is the same byte for byte on any
/// number of threads and with any round size. On one thread the engine's work
/// was about half of each line's time and parsing and formatting the rest: a
/// second core roughly doubles the lines answered per second.
package struct FireDateBatch {
    /// The zone of lines that name none.
    package var defaultZone: String
    /// The instant of lines without `after`.
    package var now: Date
    /// Lines answered per round: enough that starting the threads and the
    /// round's serial reading and writing are a few per cent of its time.
    package var linesPerRound = 16_384
    /// Bytes of lines a round holds at most (it ends early when they are long):
    /// memory stays a few MB plus the longest line, as when lines were answered one by one.
    package var bytesPerRound = 4 << 20

    /// What went wrong: how many lines got an error line, and the first of them.
    package struct Summary: Sendable {
        package var bad = 0
        /// `file:line: message` of the first bad line.
        package var firstBad: String?
    }

    package init(defaultZone: String, now: Date) {
        self.defaultZone = defaultZone
        self.now = now
    }

    /// Answers every line of `reader` (lines of blanks are skipped), passing the
    /// output to `write` in line order: `{"fires":[…]}` per line, or
    /// `{"error":"line N: …"}` for a line that is not a valid query.
    ///
    /// A round also ends where the input has no more lines ready (a client on a
    /// pipe that waits for its answers): its answers are written and `flush` is
    /// called before the next line is waited for. A file's rounds stay full.
    /// - Throws: what reading, `write` or `flush` throws; bad lines are counted instead.
    package func run(_ reader: LineReader, write: (UnsafeBufferPointer<UInt8>) throws -> Void,
                     flush: () throws -> Void = {}) throws -> Summary {
        var summary = Summary()
        var round = Round()
        // What a run's query starts as, before its first line compiles one.
        let placeholder = FireDateQuery(trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 1, repeats: false),
                                                               addedAt: now), zone: .utc, after: now, count: 0)
        let context = Context(defaultZone: defaultZone, now: now, path: reader.path, placeholder: placeholder)
        var more = true
        while more {
            round.removeAll()
            more = false
            var waiting = false
            while true {
                guard let line = try reader.nextLine(stoppingToWait: round.count > 0) else {
                    if reader.stoppedToWait {
                        waiting = true
                        more = true
                    }
                    break
                }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                round.append(line, number: reader.lineNumber)
                if round.count == linesPerRound || round.byteCount >= bytesPerRound {
                    more = true
                    break
                }
            }
            if round.count == 0 { break }
            let lines = round
            let answers = ParallelChunks.chunks(count: lines.count, weight: { lines.byteCount(of: $0) + 16 }) { range in
                context.answer(range, of: lines)
            }
            for answer in answers {
                try answer.output.withUnsafeBufferPointer { try write($0) }
                summary.bad += answer.bad
                if summary.firstBad == nil { summary.firstBad = answer.firstBad }
            }
            if waiting { try flush() }
        }
        return summary
    }

    /// A round's lines, copied out of the reader's block: their bytes one after
    /// another, where each ends, and each one's line number in the file.
    struct Round: Sendable {
        private var bytes: [UInt8] = []
        private var ends: [Int] = []
        private var numbers: [Int] = []

        var count: Int { numbers.count }

        /// Bytes of all the round's lines.
        var byteCount: Int { bytes.count }

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            numbers.removeAll(keepingCapacity: true)
        }

        mutating func append(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
            bytes.append(contentsOf: line)
            ends.append(bytes.count)
            numbers.append(number)
        }

        func byteCount(of index: Int) -> Int { ends[index] - (index == 0 ? 0 : ends[index - 1]) }

        func number(of index: Int) -> Int { numbers[index] }

        /// Calls `body` with the round's bytes, from which `line(_:in:)` cuts each line.
        func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            bytes.withUnsafeBufferPointer(body)
        }

        /// Line `index`'s bytes in `all`, the buffer `withBytes(_:)` passes.
        func line(_ index: Int, in all: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: all[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
        }
    }

    /// A run of lines' output.
    struct Answer: Sendable {
        var output: [UInt8] = []
        var bad = 0
        var firstBad: String?
    }

    /// What every run needs, shared by the threads (all of it values).
    private struct Context: Sendable {
        let defaultZone: String
        let now: Date
        let path: String
        let placeholder: FireDateQuery
        let caches = QueryLineCache.Pool()

        /// The output of lines `range` of `lines`, with a compiled query of its own.
        func answer(_ range: Range<Int>, of lines: Round) -> Answer {
            // The loop's state lives inside the closure rather than captured by
            // it: a captured variable is boxed, and each call of a method on the
            // query in its box copied the whole query first (a dozen reference
            // counts a line).
            lines.withBytes { bytes in
                var answer = Answer()
                answer.output.reserveCapacity(range.count * 48)
                // The last line's trigger, compiled: valid while `lastFields` is set.
                // Not an optional: reading a method's receiver out of an optional
                // copies the whole query, a dozen reference counts per line.
                var lastFields: FireDateQuery.Fields?
                var query = placeholder
                // The last line scanned, whose trigger `query` holds while it is set.
                var template = QueryLineTemplate()
                // The triggers compiled so far, for lines that ask about one again later.
                var cache = caches.borrow()
                defer { caches.giveBack(cache) }
                for index in range {
                    let line = lines.line(index, in: bytes)
                    do throws(DataError) {
                        // The `after` and `count` of a trigger compiled before: the
                        // last line's (its template) or an earlier one's (the cache).
                        var filled = template.values(of: line)
                        if filled == nil {
                            let key = QueryLineCache.key(of: line)
                            if let (entry, after, count) = cache.entry(for: line, key: key) {
                                (template, lastFields, query) = (entry.template, entry.fields, entry.query)
                                filled = (after, count)
                            } else {
                                template.clear()
                                var scanner = QueryLineScanner(line)
                                let scanned = scanner.fields()
                                let fields: FireDateQuery.Fields
                                if let scanned { fields = scanned } else { fields = try FireDateQuery.Fields(decodingJSONLine: line) }
                                if let previous = lastFields, try query.reask(fields, after: previous, now: now) {
                                    // Moved on in place.
                                } else {
                                    lastFields = nil
                                    query = try FireDateQuery(fields, defaultZone: defaultZone, now: now)
                                }
                                lastFields = fields
                                if scanned != nil {
                                    template.set(line, scannedBy: scanner, fields: fields)
                                    cache.keep(QueryLineCache.Entry(template: template, fields: fields, query: query), key: key)
                                }
                            }
                        }
                        if let (after, count) = filled {
                            // Read without a scan: the compiled query, moved on.
                            try query.move(afterBytes: after.map { UnsafeBufferPointer(rebasing: line[$0]) }, count: count,
                                           once: template.once, now: now)
                        }
                        answer.output.append(contentsOf: #"{"fires":["#.utf8)
                        query.appendFireList(to: &answer.output)
                        answer.output.append(contentsOf: "]}\n".utf8)
                    } catch {
                        lastFields = nil
                        template.clear()
                        let number = lines.number(of: index)
                        answer.bad += 1
                        if answer.firstBad == nil {
                            answer.firstBad = "\(InputLocation(file: path, line: number)): \(error.message)"
                        }
                        answer.output.append(contentsOf: #"{"error":"#.utf8)
                        answer.output.append(contentsOf: JSONText.quoted("line \(number): \(error.message)").utf8)
                        answer.output.append(contentsOf: "}\n".utf8)
                    }
                }
                return answer
            }
        }
    }
}

import Foundation

/// The batch path of `trigger-eval geofence`: a location log streamed through a
/// `RegionMonitor`, events written in the order of the fixes that caused them.
///
/// Memory is O(regions + devices × regions they are in + one batch of rows): the
/// log is read in batches and never held.
public final class GeofenceRun {
    /// Where the fixes come from and how to read them.
    public struct Source: Sendable {
        /// The log's path, `-` for standard input.
        public var path: String
        /// How to read it.
        public var format: LocationLogFormat
        /// CSV header names of the fields.
        public var columns: LocationLogColumns
        /// The zone of CSV times written without an offset.
        public var zone: ZoneRules

        /// Describes a log; times without an offset are UTC unless `zone` says otherwise.
        public init(path: String, format: LocationLogFormat, columns: LocationLogColumns = LocationLogColumns(),
                    zone: ZoneRules = .utc) {
            self.path = path
            self.format = format
            self.columns = columns
            self.zone = zone
        }
    }

    /// The output formats.
    public enum OutputFormat: String, Sendable, CaseIterable {
        case ndjson, csv
    }

    private let regions: [MonitoredRegion]
    private let options: MonitorOptions
    private let source: Source
    private let format: OutputFormat
    private let strict: Bool
    /// Rows per batch; by default 262,144: long runs in spatial order keep each
    /// polygon's tables in cache for more of the fixes that test it (on two
    /// threads, 65,536 took 15% longer; the threads share each batch's tests).
    public var batchSize: Int?
    private static let defaultBatchSize = 262_144
    /// Rows of a pipelined run's first batch, which the monitor thread waits for:
    /// on two threads the hard benchmark's run took 0.265 → 0.250 s, the cities'
    /// 0.091 → 0.076 s, against a first batch of full size. (16,384 rows and
    /// then doubling up to full size cost 5% more time: the small batches' tests
    /// keep fewer polygons in cache; 16,384 for the first batch alone made no
    /// difference in 12 interleaved pairs of the CLI.)
    private static let firstPipelinedBatchSize = 65_536
    /// Whether to read and parse the log on a second thread, which also shares
    /// the coverage tests of each batch (both cores).
    public var pipelined = true
    /// Sees every used fix and every event (a `GeofenceMap`, say); changes nothing.
    package var observer: (any GeofenceRunObserver)?
    /// A map drawn from the run as it goes (`GeofenceMap.write` afterwards);
    /// the events are the same with or without one.
    public var map: GeofenceMap? {
        get { observer as? GeofenceMap }
        set { observer = newValue }
    }
    /// Where `run(events:)` hands its events over; `nil` while `run(write:)` encodes them.
    var eventSink: (([RegionEvent]) throws -> Void)?

    private var monitor: RegionMonitor?

    /// Prepares a run: builds the monitor's index over the regions; nothing is read yet.
    /// - Complexity: O(total vertices).
    public init(regions: [MonitoredRegion], options: MonitorOptions, source: Source, format: OutputFormat = .ndjson,
                strict: Bool = false) throws {
        self.regions = regions
        self.options = try options.validated()
        self.source = source
        self.format = format
        self.strict = strict
        monitor = try RegionMonitor(regions: regions, options: self.options)
    }

    /// Reads the whole log (once: a run is used up by it) and calls `write` with
    /// output bytes as they are ready,
    /// and `progress` (if given) after each batch with the rows read so far.
    ///
    /// A CSV or NDJSON log on a pipe is read in batches that also end where no
    /// further line is ready: the events found so far are passed to `write`
    /// and then `flush` is called, before the next line is waited for (a log
    /// written as it goes gets its events as it goes).
    ///
    /// With `pipelined` (the default) the log is read and parsed on a second
    /// thread while this one runs the monitor and writes, and both find which
    /// regions hold each batch's fixes: both cores, one monitor, output in file order.
    /// - Throws: `InputError.file`, `InputError.data` (a bad header, a truncated
    ///   GPX file, or with `strict` the first bad or out-of-order row), or
    ///   `InputError.handler` with what `write` threw.
    public func run(write: ([UInt8]) throws -> Void, flush: () throws -> Void = {},
                    progress: ((Int) -> Void)? = nil) throws(InputError) -> GeofenceSummary {
        try InputError.reading {
            try running(write: { try InputError.calling(write, with: $0) }, flush: { try InputError.calling({ _ in try flush() }, with: ()) },
                        progress: progress)
        }
    }

    /// `run(write:flush:progress:)` with the reader's own errors.
    func running(write: ([UInt8]) throws -> Void, flush: () throws -> Void = {},
                 progress: ((Int) -> Void)?) throws -> GeofenceSummary {
        let started = DispatchTime.now()
        let reader = try LocationLog.reader(path: source.path, format: source.format, columns: source.columns,
                                            zone: source.zone)
        guard let monitor else { preconditionFailure("GeofenceRun.run() reads one log; make a new run for another") }
        self.monitor = nil
        var consumer = Consumer(run: self, monitor: monitor)
        // The regions holding each fix are found a batch at a time, in spatial order,
        // by a coverage of their own: on the reader thread when pipelined.
        let coverage = monitor.makeCoverage()
        if pipelined {
            try runPipelined(reader, coverage, &consumer, write, flush, progress)
        } else {
            var devices = DeviceTable()
            var batch = FixBatch()
            var more = true
            while more {
                batch.removeAll()
                let known = devices.names.count
                batch.rows.reserveCapacity(batchSize ?? Self.defaultBatchSize)
                more = try reader.read(into: &batch, devices: &devices, limit: batchSize ?? Self.defaultBatchSize)
                batch.newDevices = Array(devices.names[known...])
                coverage.fillCoverage(&batch)
                try consumer.consume(batch, write, flush)
                progress?(consumer.summary.rowsRead)
            }
        }
        monitor.addTests(of: coverage)
        return try consumer.finish(started: started, write)
    }

    /// Read on a second thread, monitor here; batches come back for reuse. The
    /// coverage of each batch, most of the work, is shared out between the two
    /// threads as they have time (`BatchCoverageJob`): the monitor before
    /// applying and writing, the reader once it has read the next batch.
    private func runPipelined(_ reader: any LocationLogReading, _ coverage: RegionCoverage, _ consumer: inout Consumer,
                              _ write: ([UInt8]) throws -> Void, _ flush: () throws -> Void,
                              _ progress: ((Int) -> Void)?) throws {
        let handOver = ReaderHandOver(reader: reader, coverage: coverage)
        let limit = batchSize ?? Self.defaultBatchSize
        let chunk = coverageChunk
        let ownCoverage = consumer.monitor.coverage
        try BatchChannel.pipeline(capacity: 3, empty: SharedBatch(), produce: { channel in
            let reader = handOver.reader
            // A log written as it goes can be quiet for long: once the monitor
            // side has stopped (a failed write), the reader must not wait for it.
            reader.stopWaiting(when: { channel.isCancelled })
            var devices = DeviceTable()
            // Reading comes first: only this thread can do it. Once a batch is
            // handed over, this thread helps with the one before it, which the
            // monitor thread is testing, then reads on; the new batch's tests
            // are the monitor's to start. (Helping with the new batch at once
            // left the monitor waiting for batches whenever reading was most of
            // the work: the cities' run on two threads was no faster than on one.)
            var previous: BatchCoverageJob?
            while var shared = channel.takeEmpty() {
                shared.fixes.removeAll()
                let known = devices.names.count
                // The monitor waits for the first batch: a short one starts it sooner.
                let rows = previous == nil ? min(limit, Self.firstPipelinedBatchSize) : limit
                // Room for a whole batch at once: grown by doubling, each batch's
                // rows were copied and faulted in about twice over.
                shared.fixes.rows.reserveCapacity(rows)
                let more = try reader.read(into: &shared.fixes, devices: &devices, limit: rows)
                shared.fixes.newDevices = Array(devices.names[known...])
                handOver.coverage.orderCoverage(&shared.fixes)
                let job = BatchCoverageJob(taking: &shared.fixes, chunk: chunk)
                shared.job = job
                shared.isLast = !more
                channel.send(.batch(shared))
                previous?.work(with: handOver.coverage)
                previous = job
                if !more {
                    job.work(with: handOver.coverage)
                    return
                }
            }
        }, consume: { shared in
            shared.job?.complete(with: ownCoverage, into: &shared.fixes)
            shared.job = nil
            try consumer.consume(shared.fixes, write, flush, readerIsDone: shared.isLast)
            progress?(consumer.summary.rowsRead)
        })
    }

    /// Slots of a batch's coverage taken at a time by either thread; tests give
    /// small batches several runs each.
    var coverageChunk = 8_192

    /// Events of a pipelined run's last batch from which they are encoded on
    /// two threads (below, a second thread costs more than it saves); tests
    /// lower it to check the two halves join up.
    var eventsWorthTwoThreads = 4_096

    /// The monitor side of a run: state, encoder, output buffer and summary.
    private struct Consumer {
        let run: GeofenceRun
        let monitor: RegionMonitor
        let observer: (any GeofenceRunObserver)?
        var encoder: RegionEventEncoder
        var names: [String] = []
        var summary = GeofenceSummary()
        var out: [UInt8]

        init(run: GeofenceRun, monitor: RegionMonitor) {
            self.run = run
            self.monitor = monitor
            observer = run.observer
            encoder = RegionEventEncoder(format: run.format, regions: run.regions)
            out = encoder.header
            out.reserveCapacity(1 << 17)
        }

        /// The events of the batch being consumed, in order, before they are written.
        var events: [BatchEvent] = []

        /// An event and the row (position in its batch) that caused it.
        struct BatchEvent {
            var position: Int32
            var region: Int32
            var kind: RegionEvent.Kind
        }

        /// Applies a batch's rows in order and writes their events. With
        /// `readerIsDone` (the pipelined run's last batch, the reader thread
        /// idle) a long run of events is encoded on two threads.
        mutating func consume(_ batch: FixBatch, _ write: ([UInt8]) throws -> Void, _ flush: () throws -> Void,
                              readerIsDone: Bool = false) throws {
            names += batch.newDevices
            summary.rowsRead += batch.count
            events.removeAll(keepingCapacity: true)
            // Locals and plain buffers for the per-row loop: each property read
            // through `self` or `batch` in it was a retain and release per row.
            let monitor = self.monitor
            let observer = self.observer
            let strict = run.strict
            try batch.rows.withUnsafeBufferPointer { rows in
                try batch.coveredRegions.withUnsafeBufferPointer { regions in
                    try batch.coveredStart.withUnsafeBufferPointer { starts in
                        try batch.coveredCount.withUnsafeBufferPointer { counts in
                            for position in rows.indices {
                                let row = rows[position]
                                let device = row.device
                                if device < 0 {
                                    try badRow(position, batch)
                                    continue
                                }
                                let start = starts[position]
                                let covered = UnsafeBufferPointer(rebasing: regions[start..<(start + Int(counts[position]))])
                                if let skipped = monitor.ingest(device: device, time: row.time, x: row.lon, y: row.lat,
                                                                accuracy: row.accuracy.isNaN ? nil : row.accuracy, covered: covered) {
                                    if strict && (skipped == .badValue || skipped == .outOfOrder) {
                                        throw DataError(run.strictMessage(skipped, row),
                                                        at: InputLocation(file: run.source.path, line: Int(row.line)))
                                    }
                                    continue
                                }
                                if let observer {
                                    observer.geofenceRun(usedFixOf: device, named: names[Int(device)], time: row.time,
                                                         latitude: row.lat, longitude: row.lon)
                                }
                                monitor.forEachPendingEvent { region, kind in
                                    events.append(BatchEvent(position: Int32(position), region: region, kind: kind))
                                }
                            }
                        }
                    }
                }
            }
            // Output apart from monitoring, so that each can be timed.
            let outputStart = DispatchTime.now()
            defer { summary.outputSeconds += Double(DispatchTime.now().uptimeNanoseconds - outputStart.uptimeNanoseconds) / 1e9 }
            if let sink = run.eventSink { return try handOver(to: sink, batch) }
            if readerIsDone && observer == nil && events.count >= run.eventsWorthTwoThreads {
                try encodeOnTwoThreads(batch, write)
            } else {
                for event in events {
                    let row = batch.rows[Int(event.position)]
                    Self.encode(event, of: row, names: names, with: &encoder, to: &out)
                    observer?.geofenceRun(event: event.kind, region: Int(event.region), device: row.device, time: row.time,
                                          latitude: row.lat, longitude: row.lon)
                    if out.count >= 1 << 16 { try writeOut(write) }
                }
            }
            if batch.endsWhereInputWaits {
                // The reader waits for more lines: what was found goes out now.
                try writeOut(write)
                try flush()
            }
        }

        /// Appends one event's line to `out`.
        @inline(__always)
        static func encode(_ event: BatchEvent, of row: FixBatch.Row, names: [String], with encoder: inout RegionEventEncoder,
                           to out: inout [UInt8]) {
            encoder.append(device: row.device, name: names[Int(row.device)], region: event.region, kind: event.kind,
                           time: row.time, lat: row.lat, lon: row.lon, to: &out)
        }

        /// Encodes the batch's events, the second half on another thread into
        /// a buffer of its own (with a copy of the encoder, which makes its own
        /// pieces for devices it has not seen), the first half here; then
        /// writes both in order. For the last batch, which this thread used to
        /// encode alone while the reader thread sat idle: on the hard benchmark
        /// a tail of about 60 ms on one core.
        private mutating func encodeOnTwoThreads(_ batch: FixBatch, _ write: ([UInt8]) throws -> Void) throws {
            let half = events.count / 2
            let later = Array(events[half...]), rows = batch.rows, names = self.names, copy = encoder
            let laterText = ResultSlots<[UInt8]>(count: 1)
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) {
                var encoder = copy
                var text: [UInt8] = []
                for event in later {
                    Self.encode(event, of: rows[Int(event.position)], names: names, with: &encoder, to: &text)
                }
                laterText.store(text, at: 0)
            }
            defer {
                done.wait()
                laterText.deallocate()
            }
            for event in events[..<half] {
                Self.encode(event, of: batch.rows[Int(event.position)], names: names, with: &encoder, to: &out)
                if out.count >= 1 << 16 { try writeOut(write) }
            }
            try writeOut(write)
            done.wait()
            try write(laterText.results()[0])
        }

        /// Passes the encoded output so far to `write`, if there is any, and empties it.
        private mutating func writeOut(_ write: ([UInt8]) throws -> Void) throws {
            guard !out.isEmpty else { return }
            try write(out)
            out.removeAll(keepingCapacity: true)
        }

        /// The batch's events as values, to `sink` (and the observer).
        private func handOver(to sink: ([RegionEvent]) throws -> Void, _ batch: FixBatch) throws {
            guard !events.isEmpty else { return }
            var values: [RegionEvent] = []
            values.reserveCapacity(events.count)
            for event in events {
                let row = batch.rows[Int(event.position)]
                values.append(RegionEvent(device: names[Int(row.device)], region: run.regions[Int(event.region)].identifier,
                                          kind: event.kind, time: Date(timeIntervalSince1970: row.time),
                                          coordinate: Coordinate(latitude: row.lat, longitude: row.lon)))
                observer?.geofenceRun(event: event.kind, region: Int(event.region), device: row.device, time: row.time,
                                      latitude: row.lat, longitude: row.lon)
            }
            try sink(values)
        }

        /// Counts a row that could not be parsed, or stops the run under `--strict`.
        private mutating func badRow(_ position: Int, _ batch: FixBatch) throws {
            let problem = DataError(batch.problems[position] ?? "bad row",
                                    at: InputLocation(file: run.source.path, line: Int(batch.rows[position].line)))
            if run.strict { throw problem }
            summary.badRows += 1
            if summary.firstBadRow == nil { summary.firstBadRow = problem }
        }

        mutating func finish(started: DispatchTime, _ write: ([UInt8]) throws -> Void) throws -> GeofenceSummary {
            try writeOut(write)
            summary.counters = monitor.counters
            summary.devices = names.count
            summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            return summary
        }
    }

    fileprivate func strictMessage(_ reason: MonitorCounters.SkipReason, _ row: FixBatch.Row) -> String {
        switch reason {
        case .outOfOrder:
            return "fix at \(RFC3339.string(from: Date(timeIntervalSince1970: row.time))) is older than the device's previous fix (--strict)"
        default:
            return "lat \(row.lat), lon \(row.lon) or accuracy is out of range (latitude −90…90, longitude −180…180, accuracy ≥ 0) (--strict)"
        }
    }
}

/// A batch on its way from the reader thread to the monitor thread, with the
/// coverage job both work on (`nil` only for a batch not yet read).
private struct SharedBatch: Sendable {
    var fixes = FixBatch()
    var job: BatchCoverageJob?
    /// Whether the reader has nothing after this batch.
    var isLast = false
}

/// Moves the log reader and a coverage to the reader thread.
///
/// `@unchecked Sendable`: both are created on the caller's thread and, once
/// boxed, used only by the reader thread until that thread has finished (the
/// caller waits for it, and only then reads the coverage's counters); no two
/// threads ever touch them at once. The coverage's index is immutable and shared.
private final class ReaderHandOver: @unchecked Sendable {
    let reader: any LocationLogReading
    let coverage: RegionCoverage
    init(reader: any LocationLogReading, coverage: RegionCoverage) {
        self.reader = reader
        self.coverage = coverage
    }
}

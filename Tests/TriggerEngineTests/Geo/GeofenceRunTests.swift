import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `GeofenceRun` (coverage found a batch at a time in spatial order, split
/// between two threads) against `RegionMonitor.ingest` one fix at a time: the
/// same bytes out, for every option set, one thread or two, small batches or large.
@Suite("GeofenceRun: batched, spatially ordered coverage gives the monitor's events")
struct GeofenceRunTests {
    @Test func batchedRunsWriteTheEventsOfTheMonitorFixByFix() throws {
        // Paris's real neighbourhoods and, over them, jagged random polygons.
        var random = SplitMix64(seed: 15)
        var regions = try MonitoredRegion.load(featureCollectionAt: RegionMonitorDifferentialTests.fixture("paris.geojson").path)
        let box = Envelope.around(regions)
        for index in 0..<60 {
            let ring = PolygonValidityTests.star(&random, random.nextDouble(in: box.minX...box.maxX),
                                                 random.nextDouble(in: box.minY...box.maxY), 0.004, 8 + Int(random.next() % 120))
            regions.append(MonitoredRegion(identifier: "jagged-\(index)",
                                           region: try Region(wkt: "POLYGON((" + ring.map { "\($0.x) \($0.y)" }.joined(separator: ",") + "))")))
        }
        let log = RandomWalks(devices: 40, fixesPerDevice: 150, box: box, step: 30...400).log(seed: 16)
        let folder = try CLIRunnerFreeFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.csv").path
        var csv = "device,time,lat,lon,accuracy\n"
        for fix in log {
            csv += "\(fix.device),\(fix.time.timeIntervalSince1970),\(fix.coordinate.latitude),\(fix.coordinate.longitude),"
            csv += fix.accuracy.map { "\($0)" } ?? ""
            csv += "\n"
        }
        try csv.write(toFile: path, atomically: true, encoding: .utf8)

        for options in OptionMatrix.all {
            // The reference: the monitor fix by fix, written by the same encoder.
            let monitor = try RegionMonitor(regions: regions, options: options)
            var encoder = RegionEventEncoder(format: .ndjson, regions: regions)
            var expected: [UInt8] = []
            var devices = DeviceTable()
            var expectedValues: [RegionEvent] = []
            for fix in log {
                let device = devices.index(of: fix.device)
                for event in monitor.ingest(fix) {
                    expectedValues.append(event)
                    encoder.append(device: device, name: fix.device, region: Int32(regions.firstIndex { $0.identifier == event.region }!),
                                   kind: event.kind, time: fix.time.timeIntervalSince1970, lat: fix.coordinate.latitude,
                                   lon: fix.coordinate.longitude, to: &expected)
                }
            }
            #expect(expected.count > 1_000, "\(options)")
            for (pipelined, batchSize) in [(false, 97), (true, 97), (true, 1_000), (false, 65_536), (true, 65_536)] {
                func makeRun() throws -> GeofenceRun {
                    let run = try GeofenceRun(regions: regions, options: options, source: .init(path: path, format: .csv))
                    run.pipelined = pipelined
                    run.batchSize = batchSize
                    // Small runs of slots, so that both threads take several of each batch,
                    // and the last batch's events encoded in two halves on two threads.
                    run.coverageChunk = 16
                    run.eventsWorthTwoThreads = 2
                    return run
                }
                let run = try makeRun()
                var written: [UInt8] = []
                let summary = try run.run(write: { written += $0 })
                #expect(written == expected, "\(options), pipelined \(pipelined), batches of \(batchSize)")
                #expect(summary.counters.events == monitor.counters.events)
                #expect(summary.counters.skipped == monitor.counters.skipped)
                // A batch finds coverage before the state machine skips fixes (out of order,
                // repeated, inaccurate), so it may test a few more points than the monitor.
                #expect(summary.counters.exactTests >= monitor.counters.exactTests)
                #expect(summary.counters.used == monitor.counters.used)
                // The same run handing its events over as values.
                let valuesRun = try makeRun()
                var values: [RegionEvent] = []
                let valuesSummary = try valuesRun.run(events: { values += $0 })
                #expect(values == expectedValues, "\(options), pipelined \(pipelined), batches of \(batchSize), values")
                #expect(valuesSummary.counters.events == monitor.counters.events)
            }
        }
    }
}

/// A fresh temporary folder.
/// A run on a log written as it goes (a FIFO whose writer keeps it open),
/// whose `flush` fails once the first events are out.
@Suite("GeofenceRun: a failing flush on a live log")
struct GeofenceRunFlushFailureTests {
    struct FlushFailed: Error {}

    /// The run stops with the flush's own error as `.handler`, after writing
    /// the events found so far, and at once: not when the log next has a line
    /// or ends (the reader thread used to sit in a read of the quiet log).
    @Test(arguments: [false, true])
    func aFailingFlushStopsTheRunAtOnceWithItsError(pipelined: Bool) throws {
        let folder = try CLIRunnerFreeFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("log.csv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = LogWriter(path: fifo, text: "device,time,lat,lon\nbus,2026-11-18T11:00:00Z,48.86,2.35\n"
                               + "bus,2026-11-18T11:01:00Z,48.85,2.35\n")
        defer { writer.finish() }
        let square = MonitoredRegion(identifier: "square", region: try .circle(center: Coordinate(latitude: 48.85, longitude: 2.35),
                                                                            radius: 100))
        let run = try GeofenceRun(regions: [square], options: MonitorOptions(), source: .init(path: fifo, format: .csv))
        run.pipelined = pipelined
        var written: [UInt8] = []
        let started = Date()
        do {
            _ = try run.run(write: { written += $0 }, flush: { throw FlushFailed() })
            Issue.record("the flush's failure was swallowed")
        } catch .handler(let error) {
            #expect(error is FlushFailed)
        } catch {
            Issue.record("expected .handler, got \(error)")
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 2, "the run took \(seconds) s to stop on a log that stays open")
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""device":"bus","region":"square","event":"enter""#), "\(text)")
    }

    /// Opens the FIFO for writing on a thread of its own (opening blocks until
    /// the run opens it to read), writes `text`, and keeps it open until
    /// `finish` (or 10 s), like a log that has more to come.
    final class LogWriter: @unchecked Sendable {
        private let release = DispatchSemaphore(value: 0)
        private let closed = DispatchSemaphore(value: 0)

        init(path: String, text: String) {
            let release = self.release, closed = self.closed
            Thread {
                let descriptor = open(path, O_WRONLY)
                if descriptor >= 0 {
                    _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
                    _ = release.wait(timeout: .now() + 10)
                    close(descriptor)
                }
                closed.signal()
            }.start()
        }

        func finish() {
            release.signal()
            closed.wait()
        }
    }
}

enum CLIRunnerFreeFolder {
    static func make() throws -> URL {
        let url = ScratchFolder.path("geofence-run-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

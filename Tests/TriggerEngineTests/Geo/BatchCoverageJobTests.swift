import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// A batch's coverage shared out between threads (`BatchCoverageJob`) against
/// the one-thread coverage and brute-force GEOS, on real regions and seeded points.
@Suite("Batch coverage on two threads: the one-thread coverage and GEOS's answers")
struct BatchCoverageJobTests {
    /// Seeded rows over the regions' box and a margin around it, with a few bad
    /// rows and positions out of range (which hold nothing).
    static func batch(_ regions: [MonitoredRegion], rows: Int, seed: UInt64) -> FixBatch {
        var random = SplitMix64(seed: seed)
        let box = Envelope.around(regions)
        let marginX = (box.maxX - box.minX) * 0.05, marginY = (box.maxY - box.minY) * 0.05
        var batch = FixBatch()
        for line in 0..<rows {
            switch random.next() % 50 {
            case 0: batch.appendProblem("bad row", line: line)
            case 1: batch.append(device: 0, time: Double(line), lat: 91, lon: 0, accuracy: .nan, line: line)
            default:
                batch.append(device: Int32(line % 7), time: Double(line),
                             lat: random.nextDouble(in: (box.minY - marginY)...(box.maxY + marginY)),
                             lon: random.nextDouble(in: (box.minX - marginX)...(box.maxX + marginX)), accuracy: .nan, line: line)
            }
        }
        return batch
    }

    /// Per row, the regions holding it, in the order the coverage lists them.
    static func covered(_ batch: FixBatch) -> [[Int32]] {
        batch.rows.indices.map { row in
            let start = batch.coveredStart[row]
            return Array(batch.coveredRegions[start..<(start + Int(batch.coveredCount[row]))])
        }
    }

    @Test(arguments: [1, 7, 64, 8_192])
    func twoThreadsFindTheOneThreadCoverage(chunk: Int) throws {
        let regions = try RegionMonitorDifferentialTests.regions("paris.geojson", seed: 11)
        let index = RegionIndex(regions: regions)
        let batch = Self.batch(regions, rows: 4_000, seed: UInt64(chunk))
        var one = batch
        let alone = RegionCoverage(index: index)
        alone.fillCoverage(&one)

        var two = batch
        let helper = CoverageBox(RegionCoverage(index: index))
        let own = RegionCoverage(index: index)
        own.orderCoverage(&two)
        let job = BatchCoverageJob(taking: &two, chunk: chunk)
        let done = DispatchSemaphore(value: 0)
        Thread {
            job.work(with: helper.coverage)
            done.signal()
        }.start()
        job.complete(with: own, into: &two)
        done.wait()

        let expected = Self.covered(one)
        #expect(Self.covered(two) == expected, "chunk \(chunk)")
        #expect(helper.coverage.exactTests + own.exactTests == alone.exactTests)
        // Real answers: many rows in some region, and GEOS agrees on every row.
        #expect(expected.filter { !$0.isEmpty }.count > 1_000)
        let reference = try BruteForceMonitor(regions: regions, options: MonitorOptions())
        for (row, fix) in batch.rows.enumerated() where fix.device >= 0 && fix.lat <= 90 {
            let geos = try regions.indices.filter { try reference.covered($0, lon: fix.lon, lat: fix.lat) }.map(Int32.init)
            #expect(expected[row].sorted() == geos, "row \(row)")
        }
    }

    /// The monitor thread does not wait for a reader that never took a run: a
    /// batch completed by one thread alone has the one-thread coverage, and a
    /// reader arriving afterwards (as it does once it has read the next batch)
    /// finds nothing left and changes nothing.
    @Test func completeWaitsOnlyForThreadsThatTookRuns() throws {
        let regions = try RegionMonitorDifferentialTests.regions("paris.geojson", seed: 13)
        let index = RegionIndex(regions: regions)
        let batch = Self.batch(regions, rows: 3_000, seed: 5)
        var one = batch
        RegionCoverage(index: index).fillCoverage(&one)

        var alone = batch
        let own = RegionCoverage(index: index), late = RegionCoverage(index: index)
        own.orderCoverage(&alone)
        let job = BatchCoverageJob(taking: &alone, chunk: 64)
        job.complete(with: own, into: &alone)
        job.work(with: late)
        #expect(late.exactTests == 0)
        #expect(Self.covered(alone) == Self.covered(one))
        #expect(Self.covered(one).filter { !$0.isEmpty }.count > 500)
    }

    /// One batch reused as a pipelined run reuses it (emptied, refilled with
    /// more or fewer rows, its keys, points and coverage arrays handed back by
    /// each job) gets, every time, the coverage a fresh batch gets.
    @Test func aRecycledBatchGetsAFreshBatchsCoverage() throws {
        let regions = try RegionMonitorDifferentialTests.regions("paris.geojson", seed: 17)
        let index = RegionIndex(regions: regions)
        let own = RegionCoverage(index: index), helper = RegionCoverage(index: index)
        var recycled = FixBatch()
        for (round, rows) in [2_500, 700, 3_100, 1].enumerated() {
            let fresh = Self.batch(regions, rows: rows, seed: 40 + UInt64(round))
            var expected = fresh
            RegionCoverage(index: index).fillCoverage(&expected)

            recycled.removeAll()
            for row in fresh.rows {
                if row.device < 0 {
                    recycled.appendProblem("bad row", line: Int(row.line))
                } else {
                    recycled.append(device: row.device, time: row.time, lat: row.lat, lon: row.lon, accuracy: row.accuracy,
                                    line: Int(row.line))
                }
            }
            own.orderCoverage(&recycled)
            let ordered = recycled.coverageKeys
            let job = BatchCoverageJob(taking: &recycled, chunk: 97)
            #expect(recycled.coverageKeys.isEmpty)
            job.work(with: helper)
            job.complete(with: own, into: &recycled)
            #expect(recycled.coverageKeys == ordered, "round \(round): the job hands its keys back")
            #expect(recycled.coveragePoints.count == ordered.count)
            #expect(Self.covered(recycled) == Self.covered(expected), "round \(round)")
        }
        // The rounds' answers are real: the largest batch has rows in some region.
        var largest = Self.batch(regions, rows: 3_100, seed: 42)
        own.fillCoverage(&largest)
        #expect(Self.covered(largest).filter { !$0.isEmpty }.count > 500)
    }

    /// Parts filed in any order, each with runs of slots interleaved with the
    /// other's, give every row the one-part answer.
    @Test func partsMergeIntoTheRowsTheyCover() throws {
        let regions = try RegionMonitorDifferentialTests.regions("manhattan.geojson", seed: 12)
        let index = RegionIndex(regions: regions)
        let coverage = RegionCoverage(index: index)
        var one = Self.batch(regions, rows: 3_000, seed: 99)
        coverage.fillCoverage(&one)
        var ordered = Self.batch(regions, rows: 3_000, seed: 99)
        coverage.orderCoverage(&ordered)
        var parts = [CoveragePart(), CoveragePart()]
        ordered.coverageKeys.withUnsafeBufferPointer { keys in
            ordered.coveragePoints.withUnsafeBufferPointer { points in
                for (run, start) in stride(from: 0, to: keys.count, by: 37).enumerated() {
                    coverage.cover(start..<min(start + 37, keys.count), keys: keys, points: points, into: &parts[run % 2])
                }
            }
        }
        #expect(parts[0].ranges.count > 10 && parts[1].ranges.count > 10)
        RegionCoverage.merge([parts[1], parts[0]], keys: ordered.coverageKeys, into: &ordered)
        #expect(Self.covered(ordered) == Self.covered(one))
        #expect(Self.covered(one).filter { !$0.isEmpty }.count > 500)
    }
}

/// Hands a coverage to the helper thread of a test, which alone uses it until
/// the test has waited for it.
private final class CoverageBox: @unchecked Sendable {
    let coverage: RegionCoverage
    init(_ coverage: RegionCoverage) { self.coverage = coverage }
}

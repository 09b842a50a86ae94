import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The two-thread helpers of loading and indexing against their one-thread equivalents.
@Suite("ParallelChunks: files read in halves and index tables filled by two threads, as one thread would")
struct ParallelChunksTests {
    @Test func aFileReadInHalvesHasTheBytesOfAnOrdinaryRead() throws {
        var random = SplitMix64(seed: 31)
        let folder = ScratchFolder.path("parallel-read-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 1, 2, 3, 4_095, 4_096, 1_000_001, 3 << 20] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let path = folder.appendingPathComponent("file-\(size)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let read = ParallelChunks.contents(ofRegularFile: path, minimumSize: 0)
            if ProcessInfo.processInfo.activeProcessorCount > 1 {
                #expect(read == Data(bytes), "size \(size)")
            } else {
                #expect(read == nil)
            }
            // Below the minimum size: left to the ordinary read.
            #expect(ParallelChunks.contents(ofRegularFile: path, minimumSize: size + 1) == nil)
        }
        // Not regular files, or none at all: left to the ordinary read and its errors.
        #expect(ParallelChunks.contents(ofRegularFile: folder.path, minimumSize: 0) == nil)
        #expect(ParallelChunks.contents(ofRegularFile: folder.appendingPathComponent("missing").path, minimumSize: 0) == nil)
        #expect(ParallelChunks.contents(ofRegularFile: "/dev/null", minimumSize: 0) == nil)
    }

    /// An index big enough to be filled by two threads (over `minimumWeight`
    /// vertices, so the tables are written in place by both): each polygon's
    /// vertices where its bands refer to them, and every point's
    /// regions are GEOS's, tested against each region whose envelope holds the point.
    @Test func tablesFilledInPlaceByTwoThreadsAnswerAsGEOS() throws {
        var random = SplitMix64(seed: 32)
        let regions = try (0..<420).map { index -> MonitoredRegion in
            let cx = random.nextDouble(in: 2.25...2.45), cy = random.nextDouble(in: 48.80...48.90)
            let radius = random.nextDouble(in: 0.003...0.015)
            var rings = [PolygonValidityTests.star(&random, cx, cy, radius, 8 + Int(random.next() % 250))]
            // A hole within the shell's nearest vertices (a quarter of its radius or more).
            if index % 4 == 0 { rings.append(PolygonValidityTests.star(&random, cx, cy, radius * 0.2, 10, clockwise: true)) }
            let wkt = "POLYGON(" + rings.map { "(" + $0.map { "\($0.x) \($0.y)" }.joined(separator: ",") + ")" }.joined(separator: ",") + ")"
            return MonitoredRegion(identifier: "star-\(index)", region: try Region(wkt: wkt))
        }
        #expect(regions.reduce(0) { $0 + $1.region.vertexCount } > ParallelChunks.minimumWeight)
        let index = RegionIndex(regions: regions)
        // Every table entry written: the sizes the plans asked for, no more.
        #expect(index.tables.edges.count == index.polygons.reduce(0) { $0 + $1.bandEdgeCount })
        #expect(index.tables.raster.count == index.polygonBands.reduce(0) { $0 + $1.raster.byteCount })
        #expect(index.tables.points.count == index.polygons.reduce(0) { $0 + $1.pointCount })
        // Each polygon's vertices where its bands say: its rings end to end, which the band edges refer to.
        for (number, (polygon, bands)) in zip(index.polygons, index.polygonBands).enumerated() {
            let laidOut = polygon.parts.flatMap { $0.rings.flatMap { $0 } }
            let stored = index.tables.points[bands.pointsOffset..<(bands.pointsOffset + laidOut.count)]
            let inPlace = stored.elementsEqual(laidOut)
            #expect(inPlace, "polygon \(number): its vertices are not where its bands say")
        }
        let coverage = RegionCoverage(index: index)
        let context = GEOSContext()
        let geometries = try regions.map { try $0.region.geosGeometry(in: context) }
        let envelopes = index.polygons.map(\.envelope)
        var held = 0
        for _ in 0..<3_000 {
            let x = random.nextDouble(in: 2.24...2.46), y = random.nextDouble(in: 48.79...48.91)
            coverage.collect(x, y)
            let found = Set(coverage.covered.map(Int.init))
            var expected = Set<Int>()
            for region in regions.indices where envelopes[region].minX <= x && x <= envelopes[region].maxX
                && envelopes[region].minY <= y && y <= envelopes[region].maxY {
                if try geometries[region].covers(GEOSGeometry.point(x, y, in: context)) { expected.insert(region) }
            }
            #expect(found == expected, "(\(x), \(y))")
            held += expected.count
        }
        #expect(held > 1_000, "points in regions: \(held)")
    }

    @Test func bucketsByCountingSortHoldTheListsInOrder() {
        var random = SplitMix64(seed: 33)
        // Items put in buckets in no order of bucket, as grid cells receive them.
        let puts = (0..<2_000).map { _ in (bucket: Int(random.next() % 500), item: Int(random.next() % 1_000)) }
        var lists = [[Int]](repeating: [], count: 500)
        for put in puts { lists[put.bucket].append(put.item) }
        let counted = Buckets<Int>(count: lists.count) { put in
            for entry in puts { put(entry.bucket, entry.item) }
        }
        let listed = Buckets(lists)
        #expect(counted.starts == listed.starts)
        #expect(counted.items == listed.items)
        #expect(counted.items.count == 2_000)
    }

    /// The chunks cover every index once, in order, whatever the weights (even,
    /// skewed, zero), below and above the weight worth a second thread; with
    /// several cores, heavy work comes in a few chunks per core.
    @Test func chunksCoverEveryIndexOnceInOrder() {
        var random = SplitMix64(seed: 33)
        for count in [0, 1, 2, 3, 15, 16, 17, 1_000, 40_000] {
            for shape in 0..<3 {
                let weights = (0..<count).map { index -> Int in
                    switch shape {
                    case 0: return 100
                    case 1: return index % 97 == 0 ? 50_000 : Int(random.next() % 10)
                    default: return 0
                    }
                }
                let ranges = ParallelChunks.chunks(count: count, weight: { weights[$0] }) { $0 }
                #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count) items, weights \(shape)")
                let total = weights.reduce(0, +)
                let cores = ProcessInfo.processInfo.activeProcessorCount
                if total >= ParallelChunks.minimumWeight && cores > 1 && count >= 2 {
                    #expect(ranges.count == min(count, min(cores, count) * ParallelChunks.chunksPerCore), "\(count) items")
                } else {
                    #expect(ranges.count == 1, "\(count) items, total weight \(total)")
                }
            }
        }
    }
}

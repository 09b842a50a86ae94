import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("GEOS handles: one owner each, errors as Swift errors")
struct GEOSOwnershipTests {
    @Test func thousandsOfCreateFreeCyclesOfEveryOwnedKind() throws {
        // Every wrapper frees its handle in deinit; run under
        // `swift test --sanitize=address` this loop reports any leak or double free.
        for cycle in 0..<5_000 {
            let context = GEOSContext()
            let offset = Double(cycle % 17)
            let square = try GEOSGeometry.polygon(
                shell: [XY(offset, 0), XY(offset + 4, 0), XY(offset + 4, 4), XY(offset, 4), XY(offset, 0)],
                holes: [[XY(offset + 1, 1), XY(offset + 2, 1), XY(offset + 2, 2), XY(offset + 1, 2), XY(offset + 1, 1)]],
                in: context)
            let prepared = try GEOSPreparedGeometry(square)
            #expect(try prepared.covers(offset + 3, 3))
            #expect(try !prepared.covers(offset + 1.5, 1.5), "a point in the hole is outside")
            #expect(try prepared.covers(offset + 4, 2), "the boundary counts as inside")
            let tree = try GEOSSTRtree(in: context)
            tree.insert(cycle, envelopeOf: square)
            #expect(tree.items(intersecting: try GEOSGeometry.point(offset + 2, 2, in: context)) == [cycle])
            let copy = try square.clone(in: GEOSContext())
            #expect(try copy.area() == 15)
        }
    }

    @Test func wktAndGeoJSONReadersRoundTripThroughWKB() throws {
        let context = GEOSContext()
        let fromWKT = try GEOSReader.geometry(wkt: "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))", in: context)
        let fromJSON = try GEOSReader.geometry(
            geoJSON: #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}"#, in: context)
        #expect(try fromWKT.area() == 100)
        #expect(try fromJSON.area() == 100)
        let other = GEOSContext()
        let moved = try GEOSReader.geometry(wkb: try fromJSON.wkb(), in: other)
        #expect(try moved.wkt() == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))")
        #expect(try moved.envelope() == Envelope(minX: 0, minY: 0, maxX: 10, maxY: 10))
    }

    @Test func parseErrorsCarryGEOSMessage() throws {
        let context = GEOSContext()
        let error = #expect(throws: GEOSError.self) {
            try GEOSReader.geometry(wkt: "POLYGON((0 0, 1 1", in: context)
        }
        #expect(error?.function == "GEOSWKTReader_read_r")
        #expect(error?.message.contains("ParseException") == true)
        #expect(throws: GEOSError.self) {
            try GEOSGeometry.linearRing([XY(0, 0), XY(1, 0), XY(1, 1)], in: context)
        }
    }

    @Test func bowTieIsInvalidWithAReasonAndMakeValidRepairsIt() throws {
        let context = GEOSContext()
        let bowTie = try GEOSGeometry.polygon(shell: [XY(0, 0), XY(2, 2), XY(2, 0), XY(0, 2), XY(0, 0)], in: context)
        #expect(try !bowTie.isValid())
        #expect(try bowTie.validityReason().hasPrefix("Self-intersection"))
        let repaired = try bowTie.madeValid()
        #expect(try repaired.isValid())
        #expect(try repaired.kind() == .multiPolygon)
        #expect(try repaired.area() == 2)
    }

    @Test func concurrentTasksEachWithTheirOwnContext() async throws {
        // One context per task, as per worker thread in the geofence engine.
        let insideCounts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let context = GEOSContext()
                    let circle = try GEOSGeometry.point(0, 0, in: context).buffered(by: 10, quadrantSegments: 32)
                    let prepared = try GEOSPreparedGeometry(circle)
                    var inside = 0
                    var random = SplitMix64(seed: UInt64(task))
                    for _ in 0..<20_000 {
                        let x = random.nextDouble(in: -12...12), y = random.nextDouble(in: -12...12)
                        let covered = try prepared.covers(x, y)
                        // The reference: the same question, unprepared.
                        #expect(try covered == circle.covers(GEOSGeometry.point(x, y, in: context)))
                        if covered { inside += 1 }
                    }
                    return inside
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // π·10² / 24² ≈ 54.5% of the square lies in the circle.
        for count in insideCounts { #expect((10_000...11_800).contains(count)) }
    }
}

import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `Region.polygon(exterior:holes:repair:)`: the same regions as the WKT reader
/// on the same rings, the same refusals, and containment that agrees.
@Suite("Regions from coordinates: the WKT reader's regions and rules")
struct RegionFromCoordinatesTests {
    static func coordinates(_ ring: [XY]) -> [Coordinate] { ring.map { Coordinate(latitude: $0.y, longitude: $0.x) } }
    static func wkt(_ ring: [XY]) -> String { "(" + ring.map { "\($0.x) \($0.y)" }.joined(separator: ",") + ")" }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func seededJaggedPolygonsWithAHoleAreTheWKTRegions(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<40 {
            let cx = random.nextDouble(in: -170...170), cy = random.nextDouble(in: -60...60)
            let shell = PolygonValidityTests.star(&random, cx, cy, 0.5, 8 + Int(random.next() % 150))
            // A small hole around the centre, inside every star (radius ≥ 0.125).
            let hole = PolygonValidityTests.star(&random, cx, cy, 0.05, 6, clockwise: true)
            let fromCoordinates = try Region.polygon(exterior: Self.coordinates(shell), holes: [Self.coordinates(hole)])
            let fromWKT = try Region(wkt: "POLYGON(" + Self.wkt(shell) + "," + Self.wkt(hole) + ")")
            #expect(fromCoordinates == fromWKT)
            // An open ring is closed for the caller.
            #expect(try Region.polygon(exterior: Self.coordinates(Array(shell.dropLast())),
                                       holes: [Self.coordinates(hole)]) == fromWKT)
        }
    }

    @Test func badRingsAreRefusedAndABowTieIsRepairedOnlyWhenAsked() throws {
        let bowTie = [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        #expect(throws: DataError.self) { try Region.polygon(exterior: bowTie) }
        let repaired = try Region.polygon(exterior: bowTie, repair: true)
        #expect(repaired == (try Region(wkt: "POLYGON((0 0,1 1,1 0,0 1,0 0))", repair: true)))
        #expect(repaired.polygonCount == 2)
        let tooShort = [(0.0, 0.0), (1.0, 1.0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        #expect(throws: DataError.self) { try Region.polygon(exterior: tooShort) }
        let offTheEarth = [(0.0, 0.0), (95.0, 1.0), (1.0, 0.0)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        #expect(throws: DataError.self) { try Region.polygon(exterior: offTheEarth) }
    }
}

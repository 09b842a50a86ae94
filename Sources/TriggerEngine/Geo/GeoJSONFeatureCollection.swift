import Foundation

/// A GeoJSON FeatureCollection read straight from its bytes into typed
/// coordinates: the fast path of `MonitoredRegion.featureCollection(_:repair:)`.
///
/// `JSONSerialization` makes an `NSNumber` of every coordinate and an `NSArray`
/// of every position, and `JSONDecoder` a generic value of each; on 10,000
/// polygons (42 MB) that was 1–3 s, most of the time a geofence run took. This
/// type accepts only the plain shape: Features with a Point, Polygon or
/// MultiPolygon of numeric positions, and the properties the monitor reads (`id`,
/// `name`, `radius`, `notifyOnEntry`, `notifyOnExit`, `repeats`) of the types it
/// expects. Anything else is declined (`init?(parsing:)` returns `nil`) and the
/// caller takes the general path, which accepts what it accepts and says what is
/// wrong: this is a faster route to the same answers, not a second set of rules.
package struct GeoJSONFeatureCollection: Sendable {
    package var features: [Feature]

    /// One feature: its identifiers, geometry and the properties the monitor reads.
    package struct Feature: Sendable {
        /// The feature's `id` member when it is a string or a number.
        package var id: Scalar?
        package var geometry: Geometry
        package var properties: Properties
    }

    /// An identifier: a string or a number.
    package enum Scalar: Equatable, Sendable {
        case text(String)
        case number(Double)
    }

    /// The properties the monitor reads; others are checked as JSON and passed over.
    package struct Properties: Sendable {
        /// `properties.id` and `properties.name` when they are strings or numbers.
        package var id: Scalar?
        package var name: Scalar?
        package var radius: Double?
        package var notifyOnEntry: Bool?
        package var notifyOnExit: Bool?
        package var repeats: Bool?
    }

    /// A region's geometry, positions as (longitude, latitude).
    package enum Geometry: Sendable {
        case point(XY)
        case polygon([[XY]])
        case multiPolygon([[[XY]]])

        /// Positions in all (1 for a point): the work of checking it.
        var vertexCount: Int {
            switch self {
            case .point: return 1
            case .polygon(let rings): return rings.reduce(0) { $0 + $1.count }
            case .multiPolygon(let polygons): return polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
            }
        }
    }
}

extension GeoJSONFeatureCollection {
    /// Reads a FeatureCollection of the plain shape from raw bytes (UTF-8 JSON, RFC
    /// 8259, checked in full, including the members it passes over), or returns
    /// `nil` when the bytes are anything else: not JSON, another encoding, nesting
    /// deeper than 64, an escaped member name, a geometry or property of another
    /// type, a repeated member the monitor reads. Safe on arbitrary bytes.
    ///
    /// A large document is read by two threads, in chunks from feature starts
    /// guessed at even steps (`GeoJSONChunkParse`); the answer is the same as
    /// one thread's.
    /// - Complexity: O(bytes), one pass, no intermediate JSON values.
    package init?(parsing bytes: UnsafeRawBufferPointer, splitAbove: Int = 1 << 20, chunkSize: Int = Self.chunkSize) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let start = base.assumingMemoryBound(to: UInt8.self)
        var scanner = GeoJSONScanner(start, count: bytes.count)
        if bytes.count > splitAbove, ProcessInfo.processInfo.activeProcessorCount > 1 {
            let starts = GeoJSONChunkParse.guessedStarts(start, count: bytes.count,
                                                         pieces: min(Self.chunks, max(2, bytes.count / max(chunkSize, 1))))
            if !starts.isEmpty { scanner.chunks = GeoJSONChunkParse(start, count: bytes.count, starts: starts) }
        }
        // The other thread reads the bytes: wait for it before they go, whatever happened here.
        defer { scanner.chunks?.finish() }
        guard let features = try? scanner.featureCollection() else { return nil }
        self.features = features
    }

    /// Chunks a large document is read in by two threads (`GeoJSONChunkParse`):
    /// enough for the faster to take more when one core runs slower, and each
    /// about `chunkSize` bytes or more (tests choose smaller ones).
    static let chunks = 16
    static let chunkSize = 1 << 18

    /// `init?(parsing:)` over `Data`: the entry point of the fuzz target.
    package init?(parsing data: Data, splitAbove: Int = 1 << 20, chunkSize: Int = Self.chunkSize) {
        guard let parsed = data.withUnsafeBytes({ GeoJSONFeatureCollection(parsing: $0, splitAbove: splitAbove, chunkSize: chunkSize) })
        else { return nil }
        self = parsed
    }
}

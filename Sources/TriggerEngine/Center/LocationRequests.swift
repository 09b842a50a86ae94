import Foundation

/// The center's pending location requests, watched in tiles: each tile is a
/// `RegionMonitor` over the regions of one set of monitor options whose
/// envelopes start in one cell of `cellDegrees` (about 5.5 km), so adding or
/// removing a location request rebuilds that request's tile only — a few
/// regions — and nothing else ever does (removing a timer touches no tile).
/// Regions wider than a cell, or across the antimeridian, share one tile per
/// set of options.
///
/// A fix goes to the tiles that can see it: those of its cell and the cells
/// west and south of it (a region reaches at most one cell past its own),
/// the wide tiles, the tiles whose regions the device is inside (for exits and
/// dwell), and with `cross` every tile along the segment from the device's
/// previous fix. A tile that has not seen the device's previous fix is given it
/// first, so that its monitor's view of the device is what one monitor over all
/// regions would have: that fix lies outside every region of the tile (or the
/// tile would have been given it), so it fires nothing, and the fix after it
/// is judged from where the device really was. Events of one fix come tile by
/// tile (in the order tiles were made), regions in add order within a tile.
///
/// A rebuilt tile starts knowing nothing: each device it had seen gets its
/// latest fix replayed without firing, so a device inside a region stays
/// inside; that tile's dwell timers and one-shot marks start over.
package struct LocationRequests {
    package init() {}

    /// The side of a cell, in degrees.
    static let cellDegrees = 0.05

    private struct TileKey: Hashable {
        var options: MonitorOptions
        /// The cell, or `nil` for the tile of wide regions.
        var cell: Cell?
    }

    private struct Cell: Hashable {
        var x: Int32, y: Int32

        init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }

        init(longitude: Double, latitude: Double) {
            x = Int32((longitude / LocationRequests.cellDegrees).rounded(.down))
            y = Int32((latitude / LocationRequests.cellDegrees).rounded(.down))
        }
    }

    private final class Tile {
        let key: TileKey
        /// When the tile was made: the order events of one fix come in.
        let order: Int
        /// The regions in the order their requests were added.
        var regions: [MonitoredRegion] = []
        var monitor: RegionMonitor?
        var isStale = true
        /// Each device's last fix given to the monitor (its time).
        var fed: [String: Double] = [:]

        init(key: TileKey, order: Int) {
            self.key = key
            self.order = order
        }
    }

    private var tiles: [TileKey: Tile] = [:]
    private var tileByIdentifier: [String: TileKey] = [:]
    /// The tiles of wide regions, one per set of options.
    private var wideTiles: [TileKey] = []
    /// Per device, the tiles with a region it is inside.
    private var insideTiles: [String: Set<TileKey>] = [:]
    private var tilesMade = 0
    private var usesCross = false
    /// How many tiles each set of options has: the option sets a fix's cells
    /// are looked up under, kept here rather than gathered per fix.
    private var tilesPerOptions: [MonitorOptions: Int] = [:]
    /// Each device's latest fix.
    private(set) var lastFixes: [String: LocationFix] = [:]
    /// How many tile monitors were built (tests check what a change rebuilds).
    private(set) var builds = 0

    /// How many location requests are watched.
    package var count: Int { tileByIdentifier.count }

    /// Watches (or with a known identifier, re-watches) a location request.
    /// - Complexity: O(1) plus rebuilding its tile at the next fix.
    package mutating func insert(identifier: String, trigger: LocationTrigger, defaultOptions: MonitorOptions) {
        remove(identifier: identifier)
        let options = trigger.monitorOptions ?? defaultOptions
        let key = TileKey(options: options, cell: Self.cell(of: trigger.region))
        let tile: Tile
        if let existing = tiles[key] {
            tile = existing
        } else {
            tile = Tile(key: key, order: tilesMade)
            tilesMade += 1
            tiles[key] = tile
            tilesPerOptions[options, default: 0] += 1
            if key.cell == nil { wideTiles.append(key) }
        }
        tile.regions.append(MonitoredRegion(identifier: identifier, trigger: trigger))
        tile.isStale = true
        tileByIdentifier[identifier] = key
        usesCross = usesCross || options.cross
    }

    /// Stops watching a request (an unknown identifier changes nothing).
    /// - Complexity: O(regions of its tile).
    package mutating func remove(identifier: String) {
        guard let key = tileByIdentifier.removeValue(forKey: identifier), let tile = tiles[key] else { return }
        tile.regions.removeAll { $0.identifier == identifier }
        tile.isStale = true
        if tile.regions.isEmpty {
            tiles[key] = nil
            tilesPerOptions[key.options, default: 1] -= 1
            if tilesPerOptions[key.options] == 0 { tilesPerOptions[key.options] = nil }
            wideTiles.removeAll { $0 == key }
            for device in tile.fed.keys { insideTiles[device]?.remove(key) }
        }
    }

    /// Stops watching every request (devices' latest fixes are kept).
    package mutating func removeAll() {
        tiles.removeAll()
        tileByIdentifier.removeAll()
        wideTiles.removeAll()
        insideTiles.removeAll()
        tilesPerOptions.removeAll()
        usesCross = false
    }

    /// Puts a device back at `previous` (`nil`: as if it had sent no fix),
    /// whatever this copy saw of it: a clustered center's node does this when
    /// another node took the device's fixes since. No event fires, and the
    /// one-shot regions the device already fired stay fired. A stay begun
    /// before `previous` counts for dwell from nothing (its entry is unknown here).
    package mutating func resume(device: String, at previous: LocationFix?) throws {
        var finished: [ObjectIdentifier: Set<Int64>] = [:]
        for tile in tiles.values {
            guard let monitor = tile.monitor else { continue }
            finished[ObjectIdentifier(monitor)] = monitor.finished
            monitor.forget(device: device)
            tile.fed[device] = nil
        }
        insideTiles[device] = nil
        lastFixes[device] = nil
        guard let previous else { return }
        _ = try events(for: previous)
        for tile in tiles.values {
            guard let monitor = tile.monitor, let saved = finished[ObjectIdentifier(monitor)] else { continue }
            monitor.finished = saved
        }
    }

    /// The device's latest fix taken.
    package func lastFix(of device: String) -> LocationFix? { lastFixes[device] }

    /// Takes a fix and returns the events it causes.
    /// - Throws: `DataError` when a monitor cannot be built (options out of range).
    /// - Complexity: O(tiles that can see the fix × their candidate regions).
    package mutating func events(for fix: LocationFix) throws -> [RegionEvent] {
        let previous = lastFixes[fix.device]
        defer { lastFixes[fix.device] = fix }
        var events: [RegionEvent] = []
        for tile in candidates(for: fix, after: previous) {
            if tile.isStale { try rebuild(tile) }
            guard let monitor = tile.monitor else { continue }
            if let previous, tile.fed[fix.device] != previous.time.timeIntervalSince1970 {
                // Outside every region of the tile, or it would have been given it: fires nothing.
                _ = monitor.ingest(previous)
            }
            events += monitor.ingest(fix)
            tile.fed[fix.device] = fix.time.timeIntervalSince1970
            if monitor.isInsideAnyRegion(device: fix.device) {
                insideTiles[fix.device, default: []].insert(tile.key)
            } else {
                insideTiles[fix.device]?.remove(tile.key)
            }
        }
        return events
    }

    /// The tiles that can see `fix`, in the order they were made.
    private func candidates(for fix: LocationFix, after previous: LocationFix?) -> [Tile] {
        var keys = Set(wideTiles)
        keys.formUnion(insideTiles[fix.device] ?? [])
        let here = Cell(longitude: fix.coordinate.longitude, latitude: fix.coordinate.latitude)
        var low = here, high = here
        if usesCross, let previous {
            let there = Cell(longitude: previous.coordinate.longitude, latitude: previous.coordinate.latitude)
            low = Cell(x: min(here.x, there.x), y: min(here.y, there.y))
            high = Cell(x: max(here.x, there.x), y: max(here.y, there.y))
        }
        let options = tilesPerOptions.keys
        if Int(high.x - low.x + 2) * Int(high.y - low.y + 2) * options.count > tiles.count {
            // A long segment: every tile is cheaper than every cell.
            keys.formUnion(tiles.keys)
        } else {
            for x in (low.x - 1)...high.x {
                for y in (low.y - 1)...high.y {
                    for option in options {
                        let key = TileKey(options: option, cell: Cell(x: x, y: y))
                        if tiles[key] != nil { keys.insert(key) }
                    }
                }
            }
        }
        return keys.compactMap { tiles[$0] }.sorted { $0.order < $1.order }
    }

    private mutating func rebuild(_ tile: Tile) throws {
        let monitor = try RegionMonitor(regions: tile.regions, options: tile.key.options)
        builds += 1
        // The devices it had seen get their latest fix back, without firing.
        for (device, _) in tile.fed {
            guard let last = lastFixes[device] else { continue }
            _ = monitor.ingest(last)
            tile.fed[device] = last.time.timeIntervalSince1970
            if monitor.isInsideAnyRegion(device: device) {
                insideTiles[device, default: []].insert(tile.key)
            } else {
                insideTiles[device]?.remove(tile.key)
            }
        }
        tile.monitor = monitor
        tile.isStale = false
    }

    /// The cell a region's tile is keyed by: the south-west corner of its
    /// envelope, when the region spans at most one cell each way; `nil` (a wide
    /// tile) otherwise.
    private static func cell(of region: Region) -> Cell? {
        let envelopes: [Envelope]
        switch region.shape {
        case .circle(let center, let radius):
            envelopes = CircleShape(latitude: center.latitude, longitude: center.longitude, radius: radius).envelopes
        case .polygons(let polygons):
            var envelope = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for point in polygons.lazy.flatMap(\.rings).flatMap({ $0 }) {
                envelope.minX = min(envelope.minX, point.x)
                envelope.maxX = max(envelope.maxX, point.x)
                envelope.minY = min(envelope.minY, point.y)
                envelope.maxY = max(envelope.maxY, point.y)
            }
            envelopes = [envelope]
        }
        guard envelopes.count == 1, let envelope = envelopes.first,
              envelope.maxX - envelope.minX < cellDegrees, envelope.maxY - envelope.minY < cellDegrees else { return nil }
        return Cell(longitude: envelope.minX, latitude: envelope.minY)
    }
}

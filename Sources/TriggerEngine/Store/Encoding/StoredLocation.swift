import Foundation

/// A location trigger as the store writes it (the `parameters` of a kind 3
/// trigger row, `TriggerColumns`): the region as numbers, not as the command
/// line's JSON, and the monitor options under the store's own names.
///
///     {"circle":[lat,lon,radius],"entry":true,"exit":true}
///     {"rings":[[[[lon,lat],…],…]],"entry":true,"exit":false,"monitor":{"hysteresis":25}}
///
/// `rings` holds each polygon's rings (shell first) as `Region` keeps them,
/// already closed and split at the antimeridian; loading checks them again.
struct StoredLocation: Codable {
    var circle: [Double]?
    var rings: [[[[Double]]]]?
    var entry: Bool
    var exit: Bool
    var monitor: StoredMonitorOptions?

    init(_ trigger: LocationTrigger) {
        switch trigger.region.shape {
        case .circle(let center, let radius):
            circle = [center.latitude, center.longitude, radius]
        case .polygons(let polygons):
            rings = polygons.map { $0.rings.map { $0.map { [$0.x, $0.y] } } }
        }
        entry = trigger.notifyOnEntry
        exit = trigger.notifyOnExit
        monitor = trigger.monitorOptions.map(StoredMonitorOptions.init)
    }

    /// The trigger, with `repeats` from its row.
    func trigger(repeats: Bool) throws -> LocationTrigger {
        let region: Region
        if let circle {
            guard circle.count == 3 else { throw DataError("a stored circle has \(circle.count) numbers, not 3") }
            let center = Coordinate(latitude: circle[0], longitude: circle[1])
            guard center.isValid else { throw DataError("stored circle centre \(circle[0]),\(circle[1]) is not a position") }
            region = try Region.circle(center: center, radius: circle[2])
        } else if let rings {
            let raw = try rings.map { polygon in
                try polygon.map { ring in
                    try ring.map { pair throws(DataError) -> XY in
                        guard pair.count == 2 else { throw DataError("a stored position has \(pair.count) numbers, not 2") }
                        return XY(pair[0], pair[1])
                    }
                }
            }
            region = try Region.polygons(raw, label: "stored region", repair: false, in: GEOSContext())
        } else {
            throw DataError("a stored location trigger has neither a circle nor rings")
        }
        return LocationTrigger(region: region, notifyOnEntry: entry, notifyOnExit: exit, repeats: repeats,
                               monitorOptions: try monitor?.options())
    }

    /// The JSON text, keys sorted: it is part of the trigger row's key, which
    /// must not vary between two writes of one trigger.
    func text() throws -> String {
        String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    }

    init(text: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}

/// `MonitorOptions` under the store's names; a default is left out.
struct StoredMonitorOptions: Codable {
    var initial: String?
    var hysteresis: Double?
    var dwell: Double?
    var cross: Bool?
    var maxAccuracy: Double?

    init(_ options: MonitorOptions) {
        initial = options.initial == .none ? nil : StoredCodes.text(of: options.initial)
        hysteresis = options.hysteresis == 0 ? nil : options.hysteresis
        dwell = options.dwell
        cross = options.cross ? true : nil
        maxAccuracy = options.maxAccuracy
    }

    func options() throws(DataError) -> MonitorOptions {
        var options = MonitorOptions()
        if let initial { options.initial = try StoredCodes.initialState(text: initial) }
        options.hysteresis = hysteresis ?? 0
        options.dwell = dwell
        options.cross = cross ?? false
        options.maxAccuracy = maxAccuracy
        return try options.validated()
    }
}

import Foundation

/// Something a device did with respect to a region, at the fix that showed it.
public struct RegionEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Outside → inside.
        case enter
        /// Inside → outside (farther than the hysteresis from the region).
        case exit
        /// Still inside the dwell time after an enter (Android's `GEOFENCE_TRANSITION_DWELL`).
        case dwell
        /// Two consecutive fixes outside whose segment passes through the region.
        case cross
    }

    /// The device's identifier.
    public var device: String
    /// The region's identifier.
    public var region: String
    /// What happened.
    public var kind: Kind
    /// The time of the fix that caused the event.
    public var time: Date
    /// The position of that fix.
    public var coordinate: Coordinate

    /// Creates an event.
    public init(device: String, region: String, kind: Kind, time: Date, coordinate: Coordinate) {
        self.device = device
        self.region = region
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
    }
}

extension RegionEvent.Kind {
    /// The kind's position in `allCases` (enter 0, exit 1, dwell 2, cross 3),
    /// for tables indexed by kind instead of dictionaries.
    var ordinal: Int {
        switch self {
        case .enter: return 0
        case .exit: return 1
        case .dwell: return 2
        case .cross: return 3
        }
    }
}

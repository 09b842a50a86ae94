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

import Foundation

/// One position report of one device: a row of a location log.
public struct LocationFix: Sendable {
    /// The device's identifier.
    public var device: String
    /// When the position was taken.
    public var time: Date
    /// Where.
    public var coordinate: Coordinate
    /// Horizontal accuracy in metres (radius of 68 % confidence), when known.
    public var accuracy: Double?

    /// Creates a fix.
    public init(device: String, time: Date, coordinate: Coordinate, accuracy: Double? = nil) {
        self.device = device
        self.time = time
        self.coordinate = coordinate
        self.accuracy = accuracy
    }
}

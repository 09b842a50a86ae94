/// A trigger that fires when a device enters or leaves a region, as
/// `UNLocationNotificationTrigger` with a `CLRegion`'s `notifyOnEntry` and
/// `notifyOnExit`.
public struct LocationTrigger: Sendable, Hashable {
    /// The region watched.
    public var region: Region
    /// Whether entering the region fires.
    public var notifyOnEntry: Bool
    /// Whether leaving the region fires.
    public var notifyOnExit: Bool
    /// `false`: the trigger fires at most once per device.
    public var repeats: Bool
    /// How this region is watched (initial state, hysteresis, dwell); `nil`:
    /// the notification center's (`LocationPolicy.options`).
    public var monitorOptions: MonitorOptions?

    /// Creates a trigger; both directions notify by default, as `CLRegion` does.
    public init(region: Region, notifyOnEntry: Bool = true, notifyOnExit: Bool = true, repeats: Bool,
                monitorOptions: MonitorOptions? = nil) {
        self.region = region
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.repeats = repeats
        self.monitorOptions = monitorOptions
    }
}

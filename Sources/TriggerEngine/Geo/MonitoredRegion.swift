/// A region under watch: its identifier (what events name) and its trigger.
public struct MonitoredRegion: Sendable, Hashable {
    /// The identifier events carry, for example a GeoJSON feature's `id`.
    public var identifier: String
    /// The region and what fires for it.
    public var trigger: LocationTrigger

    /// Creates a monitored region.
    public init(identifier: String, trigger: LocationTrigger) {
        self.identifier = identifier
        self.trigger = trigger
    }

    /// Creates a monitored region from its parts.
    public init(identifier: String, region: Region, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
                repeats: Bool = true) {
        self.init(identifier: identifier, trigger: LocationTrigger(
            region: region, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit, repeats: repeats))
    }

    /// The region watched.
    public var region: Region { trigger.region }
    /// Whether entering fires.
    public var notifyOnEntry: Bool { trigger.notifyOnEntry }
    /// Whether leaving fires.
    public var notifyOnExit: Bool { trigger.notifyOnExit }
    /// `false`: at most one event per device.
    public var repeats: Bool { trigger.repeats }
}

import Foundation

/// The center's pending location requests, watched by one `RegionMonitor` per
/// distinct set of monitor options (most centers have one). A change to the
/// location requests rebuilds the monitor of the options it touches only, and
/// nothing else does: adding or removing a timer never touches the monitors.
///
/// A rebuilt monitor starts knowing nothing; each device's latest fix is
/// replayed into it without firing, so a device inside a region stays inside
/// and its next fix outside fires the exit the old monitor would have. Dwell
/// timers and one-shot marks of the rebuilt group start over.
struct LocationRequests {
    private struct Group {
        /// The regions in the order their requests were added (the order events of one fix come in).
        var regions: [MonitoredRegion] = []
        var monitor: RegionMonitor?
        var isStale = false
    }

    private var groups: [MonitorOptions: Group] = [:]
    /// The option sets in the order they first appeared (events of one fix: groups in this order).
    private var groupOrder: [MonitorOptions] = []
    private var optionsByIdentifier: [String: MonitorOptions] = [:]
    /// Each device's latest fix.
    private(set) var lastFixes: [String: LocationFix] = [:]
    /// How many monitors were built (tests check what a change rebuilds).
    private(set) var builds = 0

    /// How many location requests are watched.
    var count: Int { optionsByIdentifier.count }

    /// Watches (or with a known identifier, re-watches) a location request.
    mutating func insert(identifier: String, trigger: LocationTrigger, defaultOptions: MonitorOptions) {
        remove(identifier: identifier)
        let options = trigger.monitorOptions ?? defaultOptions
        if groups[options] == nil {
            groups[options] = Group()
            groupOrder.append(options)
        }
        groups[options]!.regions.append(MonitoredRegion(identifier: identifier, trigger: trigger))
        groups[options]!.isStale = true
        optionsByIdentifier[identifier] = options
    }

    /// Stops watching a request (an unknown identifier changes nothing).
    mutating func remove(identifier: String) {
        guard let options = optionsByIdentifier.removeValue(forKey: identifier) else { return }
        groups[options]!.regions.removeAll { $0.identifier == identifier }
        groups[options]!.isStale = true
        if groups[options]!.regions.isEmpty {
            groups[options] = nil
            groupOrder.removeAll { $0 == options }
        }
    }

    /// Stops watching every request (devices' latest fixes are kept).
    mutating func removeAll() {
        groups.removeAll()
        groupOrder.removeAll()
        optionsByIdentifier.removeAll()
    }

    /// The device's latest fix taken.
    func lastFix(of device: String) -> LocationFix? { lastFixes[device] }

    /// Takes a fix and returns the events it causes, groups in the order their
    /// options first appeared, regions in add order within a group.
    /// - Throws: `DataError` when a monitor cannot be built (options out of range).
    mutating func events(for fix: LocationFix) throws -> [RegionEvent] {
        defer { lastFixes[fix.device] = fix }
        var events: [RegionEvent] = []
        for options in groupOrder {
            if groups[options]!.isStale { try rebuild(options) }
            if let monitor = groups[options]!.monitor { events += monitor.ingest(fix) }
        }
        return events
    }

    private mutating func rebuild(_ options: MonitorOptions) throws {
        let monitor = try RegionMonitor(regions: groups[options]!.regions, options: options)
        for fix in lastFixes.values.sorted(by: { $0.time < $1.time }) { _ = monitor.ingest(fix) }
        groups[options]!.monitor = monitor
        groups[options]!.isStale = false
        builds += 1
    }
}

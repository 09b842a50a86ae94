import Foundation

/// Watches devices move through regions: takes fixes in order and returns the
/// enter, exit, dwell and cross events they cause (as `trigger-eval geofence`
/// reports them).
///
/// The monitor owns its GEOS context and the prepared geometries GEOS needs for the
/// rare points floating point cannot place, so it is not `Sendable`: use one per
/// thread (split the devices between monitors). Memory is O(regions + devices ×
/// the regions each is in); fixes are not kept.
///
/// A fix is tested exactly only against the regions whose envelope (of one of its
/// parts) holds it, found through a grid; circles are tested with the haversine
/// formula, polygons with a ray-crossing test in Swift that agrees with GEOS's
/// `covers` (see `PlanarPolygon`).
public final class RegionMonitor {
    /// The regions watched, in the order events are reported within one fix.
    public let regions: [MonitoredRegion]
    /// The semantics in force.
    public let options: MonitorOptions
    /// What the monitor has seen so far.
    public var counters: MonitorCounters {
        var counters = stateCounters
        counters.exactTests += coverage.exactTests
        counters.geosTests += coverage.geosTests
        for kind in RegionEvent.Kind.allCases where eventCounts[kind.ordinal] > 0 {
            counters.events[kind, default: 0] += eventCounts[kind.ordinal]
        }
        return counters
    }
    // The monitor is not Sendable and its methods do not overlap accesses to one
    // property, so the run-time exclusivity checks on its hot stored properties
    // (a fifth of the time per fix, measured) are turned off for them.
    /// Fixes used and skipped, events, and exact tests made for it by other coverages.
    @exclusivity(unchecked) var stateCounters = MonitorCounters()

    /// What fires for a region, as plain data.
    struct Flags {
        var notifyOnEntry: Bool
        var notifyOnExit: Bool
        var repeats: Bool
    }

    let flags: [Flags]
    /// The regions' exact tests and candidate grid, shareable with other threads.
    let index: RegionIndex
    /// This monitor's own exact tests (and GEOS context).
    let coverage: RegionCoverage
    @exclusivity(unchecked) var devices: [DeviceState] = []
    /// The regions devices are in: singly linked lists through a pool, one per device.
    @exclusivity(unchecked) var memberships: [Membership] = []
    @exclusivity(unchecked) var freeMembership: Int32 = -1
    /// (device << 32 | region) of regions that do not repeat and have fired for the device.
    @exclusivity(unchecked) var finished: Set<Int64> = []
    private var deviceNames: [String: Int32] = [:]
    private var names: [String] = []
    @exclusivity(unchecked) var insideBefore: [Int32] = []
    /// Events fired so far, by kind (`RegionEvent.Kind.allCases` order), folded
    /// into `stateCounters` on read: a dictionary update per event was measurable.
    @exclusivity(unchecked) var eventCounts = [Int](repeating: 0, count: RegionEvent.Kind.allCases.count)
    /// The events of the last fix given to `ingest(device:time:x:y:accuracy:)`.
    @exclusivity(unchecked) package internal(set) var pendingEvents: [PendingEvent] = []

    /// An event of the last fix, before it is given names.
    package struct PendingEvent {
        package var region: Int32
        package var kind: RegionEvent.Kind
    }

    /// One region a device is inside, a link in that device's list.
    struct Membership {
        var region: Int32
        /// The next membership of the same device, −1 at the end.
        var next: Int32
        /// When the device entered (NaN: it was inside from its first fix).
        var enteredAt: Double
        var dwellPending: Bool
    }

    /// What the monitor remembers of one device: plain data.
    struct DeviceState {
        var hasFix = false
        var time = -Double.infinity
        var x = 0.0, y = 0.0
        /// The first of its memberships, −1 when it is in no region.
        var head: Int32 = -1
    }

    /// Creates a monitor for `regions`.
    /// - Throws: `DataError` when the options are out of range.
    /// - Complexity: O(total vertices).
    public init(regions: [MonitoredRegion], options: MonitorOptions = MonitorOptions()) throws {
        self.regions = regions
        self.options = try options.validated()
        flags = regions.map { Flags(notifyOnEntry: $0.notifyOnEntry, notifyOnExit: $0.notifyOnExit, repeats: $0.repeats) }
        index = RegionIndex(regions: regions)
        coverage = RegionCoverage(index: index)
    }

    /// Takes the next fix and returns the events it causes, ordered by region
    /// (the order of `regions`). A fix that is skipped (see `MonitorCounters.SkipReason`)
    /// returns no events and changes nothing.
    /// - Complexity: O(candidate regions × edges in the fix's band + regions the device is in).
    public func ingest(_ fix: LocationFix) -> [RegionEvent] {
        let device = deviceIndex(named: fix.device)
        ingest(device: device, time: fix.time.timeIntervalSince1970, x: fix.coordinate.longitude,
               y: fix.coordinate.latitude, accuracy: fix.accuracy)
        return pendingEvents.map {
            RegionEvent(device: fix.device, region: regions[Int($0.region)].identifier, kind: $0.kind,
                        time: fix.time, coordinate: fix.coordinate)
        }
    }

    /// Whether the device is inside one of the regions (within the hysteresis
    /// of one it has not left yet); `false` for a device never seen.
    public func isInsideAnyRegion(device name: String) -> Bool {
        guard let index = deviceNames[name], Int(index) < devices.count else { return false }
        return devices[Int(index)].head >= 0
    }

    /// The index the fast path knows a device by.
    /// Forgets where a device was: its latest fix and the regions it is in,
    /// as if it had sent none (the regions it already fired once are kept).
    /// A clustered center does this before putting a device back at the fix
    /// the database holds, when another node took the fixes in between.
    public func forget(device name: String) {
        guard let index = deviceNames[name], Int(index) < devices.count else { return }
        var link = devices[Int(index)].head
        while link >= 0 {
            let next = memberships[Int(link)].next
            memberships[Int(link)].next = freeMembership
            freeMembership = link
            link = next
        }
        devices[Int(index)] = DeviceState()
    }

    package func deviceIndex(named name: String) -> Int32 {
        if let index = deviceNames[name] { return index }
        let index = Int32(names.count)
        names.append(name)
        deviceNames[name] = index
        return index
    }

    /// Why `ingest(device:…)` did not use a fix, or `nil` when it did.
    @discardableResult
    package func ingest(device: Int32, time: Double, x: Double, y: Double, accuracy: Double?) -> MonitorCounters.SkipReason? {
        ingest(device: device, time: time, x: x, y: y, accuracy: accuracy, covered: nil)
    }

    /// The same, with the regions holding (x, y) already found (by another
    /// `RegionCoverage` over `index`, for example on a reader thread), or `nil`
    /// to find them here.
    package func ingest(device: Int32, time: Double, x: Double, y: Double, accuracy: Double?,
                        covered: UnsafeBufferPointer<Int32>?) -> MonitorCounters.SkipReason? {
        // Most fixes fire nothing: skip the (out-of-line) removal when empty.
        if !pendingEvents.isEmpty { pendingEvents.removeAll(keepingCapacity: true) }
        let reason = skipReason(device: device, time: time, x: x, y: y, accuracy: accuracy)
        if let reason {
            stateCounters.skipped[reason, default: 0] += 1
            return reason
        }
        stateCounters.used += 1
        if let covered {
            transition(device: Int(device), time: time, x: x, y: y, covered: covered)
        } else {
            coverage.collect(x, y)
            transition(device: Int(device), time: time, x: x, y: y, covered: coverage.covered)
        }
        return nil
    }

    /// Calls `body` with each event of the last fix, without copying the list.
    ///
    /// Element by element rather than through `withUnsafeBufferPointer`: that
    /// retained and released the list's buffer around every call, fix or no
    /// event (`body` could replace the list), two atomic operations per row of
    /// a batch run, 3 % of its monitor thread's time on the hard benchmark.
    @inline(__always)
    package func forEachPendingEvent(_ body: (Int32, RegionEvent.Kind) -> Void) {
        var position = 0
        while position < pendingEvents.count {
            let event = pendingEvents[position]
            body(event.region, event.kind)
            position += 1
        }
    }

    /// A coverage over this monitor's index for another thread (see `RegionCoverage+Batch`).
    func makeCoverage() -> RegionCoverage { RegionCoverage(index: index) }

    /// Counts exact tests made for this monitor by another coverage.
    func addTests(of other: RegionCoverage) {
        stateCounters.exactTests += other.exactTests
        stateCounters.geosTests += other.geosTests
    }

    private func skipReason(device: Int32, time: Double, x: Double, y: Double, accuracy: Double?) -> MonitorCounters.SkipReason? {
        guard y >= -90, y <= 90, x >= -180, x <= 180, time.isFinite else { return .badValue }
        if let accuracy {
            guard accuracy >= 0, accuracy.isFinite else { return .badValue }
            if let limit = options.maxAccuracy, accuracy > limit { return .inaccurate }
        }
        let index = Int(device)
        if index >= devices.count {
            devices.append(contentsOf: repeatElement(DeviceState(), count: index + 1 - devices.count))
        }
        if devices[index].hasFix {
            if time < devices[index].time { return .outOfOrder }
            if time == devices[index].time { return .duplicate }
        }
        return nil
    }
}

internal import HeapModule

/// A map of a geofence run, as one self-contained SVG or HTML file: the regions
/// (labelled), each device's track, every event as a marker at its fix, a scale
/// bar, a north arrow, a legend and the time span, in Web Mercator fitted to the
/// data (cut where nothing is, so a run across the antimeridian lies together).
///
/// Attach it to a run, or feed it yourself:
///
/// ```swift
/// let map = try GeofenceMap(regions: regions)
/// run.observer = map
/// _ = try run.run(write: { bytes in … })
/// let report = try map.write(.html) { bytes in try handle.write(contentsOf: bytes) }
/// ```
///
/// Memory is constant in the number of fixes: tracks and events go to a
/// temporary file as the run streams (`MapSpool`), within the limits of
/// `MapSampling`, and the SVG is written from it at the end, once the extent of
/// the data is known. What stays in memory is O(regions + devices).
///
/// A map is not `Sendable`: one run's monitor thread feeds it, then one `write`.
public final class GeofenceMap {
    /// The regions drawn, in the run's order (events name them by position).
    public let regions: [MonitoredRegion]
    /// How the map looks.
    public let style: MapStyle
    /// How much of the run is drawn.
    public let sampling: MapSampling

    // State touched at every fix. `@exclusivity(unchecked)`: a map is fed by one
    // thread (it is not `Sendable`) and these are never passed `inout` while
    // another access is open, so the runtime's access tracking (about a tenth of
    // a run's time in a profile) buys nothing; the monitor does the same.

    // The extent of everything seen, for the frame.
    @exclusivity(unchecked) var coverage = LongitudeCoverage()
    @exclusivity(unchecked) var south = Double.infinity, north = -Double.infinity
    @exclusivity(unchecked) var firstTime = Double.infinity, lastTime = -Double.infinity
    @exclusivity(unchecked) var fixCount = 0
    @exclusivity(unchecked) var eventCounts = [Int](repeating: 0, count: RegionEvent.Kind.allCases.count)

    // Per device, by the run's device number.
    @exclusivity(unchecked) var names: [String] = []
    @exclusivity(unchecked) var previousLongitude: [Double] = []
    @exclusivity(unchecked) var fixSequence: [UInt32] = []
    @exclusivity(unchecked) var slotOfDevice: [Int32] = []
    @exclusivity(unchecked) var devicesSeen = 0

    // Tracks of the drawn devices: one slot each, written in chunks.
    @exclusivity(unchecked) var slots: [TrackSlot] = []
    /// The drawn devices with the largest hash on top, to give way to a smaller one.
    @exclusivity(unchecked) var drawnByHash = Heap<HashedDevice>()
    @exclusivity(unchecked) var fixStride: UInt32 = 1
    @exclusivity(unchecked) var spooledFixes = 0
    let trackSpool: MapSpool

    // Events.
    @exclusivity(unchecked) var eventStride = 1
    @exclusivity(unchecked) var eventSequence = 0
    @exclusivity(unchecked) var spooledEvents = 0
    let eventSpool: MapSpool

    // For `observe(_:)`, which names devices and regions by identifier.
    private var deviceNumbers: [String: Int32] = [:]
    private lazy var regionNumbers: [String: Int] = Dictionary(
        regions.enumerated().map { ($1.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    private var written = false

    /// Prepares a map of a run over `regions`; nothing is drawn until `write`.
    /// - Throws: `MapSpoolError` when no temporary file can be made.
    /// - Complexity: O(total vertices).
    public init(regions: [MonitoredRegion], style: MapStyle = MapStyle(),
                sampling: MapSampling = MapSampling()) throws(MapSpoolError) {
        self.regions = regions
        self.style = style
        self.sampling = sampling
        trackSpool = try MapSpool()
        eventSpool = try MapSpool()
        for region in regions { addToExtent(region.region) }
    }

    /// Adds a fix the monitor used. Fixes out of range are ignored; give only the
    /// fixes the monitor used (a fix it skipped as out of order would draw a
    /// jump back in the track). Prefer `GeofenceRun.observer`, which does this.
    /// - Complexity: amortised O(1) (O(log devices drawn) at a device's first fix).
    public func observe(_ fix: LocationFix) {
        guard fix.coordinate.isValid else { return }
        let number: Int32
        if let known = deviceNumbers[fix.device] {
            number = known
        } else {
            number = Int32(deviceNumbers.count)
            deviceNumbers[fix.device] = number
        }
        geofenceRun(usedFixOf: number, named: fix.device, time: fix.time.timeIntervalSince1970,
                    latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude)
    }

    /// Adds an event (after its fix was observed). An event naming a region that
    /// is not among `regions`, or a device never observed, is ignored.
    public func observe(_ event: RegionEvent) {
        guard let region = regionNumbers[event.region], let device = deviceNumbers[event.device] else { return }
        geofenceRun(event: event.kind, region: region, device: device, time: event.time.timeIntervalSince1970,
                    latitude: event.coordinate.latitude, longitude: event.coordinate.longitude)
    }

    /// Writes the map: an SVG document, or an HTML page holding it with hover
    /// details; `output` is called with the bytes in order, a block at a time.
    /// A map is written once (its temporary files are read back as it is).
    /// - Returns: what was drawn and what was left out.
    /// - Throws: `InputError.temporaryStorage` when the map's temporary files
    ///   fail, or `InputError.handler` with what `output` threw.
    /// - Complexity: O(regions' vertices + fixes and events drawn).
    @discardableResult
    public func write(_ format: MapFormat, to output: ([UInt8]) throws -> Void) throws(InputError) -> MapReport {
        try InputError.reading { try writing(format, to: { try InputError.calling(output, with: $0) }) }
    }

    private func writing(_ format: MapFormat, to output: ([UInt8]) throws -> Void) throws -> MapReport {
        precondition(!written, "GeofenceMap.write: a map is written once")
        written = true
        finishTracks()
        try trackSpool.rewind()
        try eventSpool.rewind()
        var report = MapReport(frame: frame)
        report.fixes = fixCount
        report.devices = devicesSeen
        report.trackDevices = slots.count
        report.fixStride = Int(fixStride)
        report.events = eventSequence
        report.eventStride = eventStride
        return try withoutActuallyEscaping(output) { output in
            var writer = SVGMapWriter(map: self, report: report, format: format, output: output)
            try writer.writeDocument()
            return writer.report
        }
    }
}

extension GeofenceMap: GeofenceRunObserver {
    /// See `GeofenceRunObserver`.
    package func geofenceRun(usedFixOf device: Int32, named name: String, time: Double,
                            latitude: Double, longitude: Double) {
        let index = Int(device)
        if index >= names.count { growDevices(to: index + 1) }
        fixCount += 1
        if latitude < south { south = latitude }
        if latitude > north { north = latitude }
        if time < firstTime { firstTime = time }
        if time > lastTime { lastTime = time }
        let previous = previousLongitude[index]
        if previous.isNaN {
            coverage.add(longitude)
            names[index] = name
            devicesSeen += 1
            admit(device)
        } else {
            coverage.addArc(from: previous, to: longitude)
        }
        previousLongitude[index] = longitude
        let sequence = fixSequence[index]
        fixSequence[index] = sequence &+ 1
        let slot = Int(slotOfDevice[index])
        if slot >= 0 {
            addTrackFix(slot: slot, sequence: sequence, latitude: latitude, longitude: longitude, previous: previous)
        }
    }

    /// See `GeofenceRunObserver`.
    package func geofenceRun(event kind: RegionEvent.Kind, region: Int, device: Int32, time: Double,
                            latitude: Double, longitude: Double) {
        eventCounts[kind.ordinal] += 1
        let sequence = eventSequence
        eventSequence += 1
        guard sequence % eventStride == 0 else { return }
        eventSpool.append(EventRecord(sequence: Int64(sequence), time: time, latitude: latitude, longitude: longitude,
                                      device: device, region: Int32(region), kind: UInt8(kind.ordinal)))
        spooledEvents += 1
        if spooledEvents > sampling.maxEvents {
            // Every other event from now on, and every other one of those already
            // kept: those numbered 0, stride, 2·stride, … of the events so far.
            eventStride *= 2
            spooledEvents = (eventSequence + eventStride - 1) / eventStride
        }
    }

    private func growDevices(to count: Int) {
        let more = count - names.count
        names += repeatElement("", count: more)
        previousLongitude += repeatElement(.nan, count: more)
        fixSequence += repeatElement(0, count: more)
        slotOfDevice += repeatElement(-1, count: more)
    }
}

/// One event as spooled.
struct EventRecord: BitwiseCopyable {
    var sequence: Int64
    var time: Double
    var latitude: Double
    var longitude: Double
    var device: Int32
    var region: Int32
    var kind: UInt8
}

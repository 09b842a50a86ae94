/// Turns the TZIDs a calendar names into `ZoneRules` (RFC 5545 §3.2.19, §3.6.5):
/// the file's own VTIMEZONE first (read by libical, its offsets sampled into a
/// transition table), then an IANA name known to the system, then the Windows
/// names Outlook writes (`W. Europe Standard Time`). An unknown TZID is an error
/// naming the line that used it.
public struct ICSTimeZoneResolver: Sendable {
    private var fromFile: [String: ZoneRules] = [:]
    private var cache: [String: ZoneRules] = [:]

    /// A resolver that knows no VTIMEZONE yet.
    public init() {}

    /// Sampling span for VTIMEZONE tables: 1900…2150, a week apart, each change
    /// narrowed to the second by bisection.
    static let sampleStart = -2_208_988_800
    static let sampleEnd = 5_680_281_600
    static let sampleStep = 7 * 86_400

    /// Adds a VTIMEZONE component read from the file.
    /// - Throws: `DataError` at the component's line when libical cannot make a zone of it.
    public mutating func add(vtimezone: ICSComponentText, file: String) throws(DataError) {
        let location = InputLocation(file: file, line: vtimezone.line)
        guard let tzid = vtimezone.first("TZID")?.value, !tzid.isEmpty else {
            throw DataError("VTIMEZONE without TZID", at: location)
        }
        let zone: ICalTimeZone
        do {
            zone = try ICalTimeZone.from(vtimezone: try ICalComponent.parse(vtimezone.icalText))
        } catch {
            throw DataError("VTIMEZONE \(tzid): \(error)", at: location)
        }
        fromFile[tzid] = Self.rules(of: zone, identifier: tzid)
    }

    /// Whether `tzid` was already answered from the system's zones (no VTIMEZONE
    /// of that name had been read when it was asked for).
    func resolvedFromSystem(_ tzid: String) -> Bool { cache[tzid] != nil }

    /// Reads a libical zone's offsets into a transition table.
    static func rules(of zone: ICalTimeZone, identifier: String) -> ZoneRules {
        var transitions: [(at: Int, offset: Int)] = []
        let initial = zone.utcOffset(atEpochSeconds: sampleStart)
        var previousTime = sampleStart
        var previousOffset = initial
        var time = sampleStart + sampleStep
        while time <= sampleEnd {
            let offset = zone.utcOffset(atEpochSeconds: time)
            if offset != previousOffset {
                // Bisect (previousTime, time] for the first second with the new offset.
                var low = previousTime, high = time
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if zone.utcOffset(atEpochSeconds: middle) == previousOffset { low = middle } else { high = middle }
                }
                transitions.append((high, zone.utcOffset(atEpochSeconds: high)))
                previousOffset = offset
            }
            previousTime = time
            time += sampleStep
        }
        return ZoneRules(identifier: identifier, initialOffset: initial, transitions: transitions)
    }

    /// The rules for `tzid`, used at `location`.
    /// - Throws: `DataError` for a TZID that is neither in the file, nor IANA, nor a known Windows name.
    public mutating func zone(named tzid: String, at location: InputLocation) throws(DataError) -> ZoneRules {
        if let zone = fromFile[tzid] ?? cache[tzid] { return zone }
        var candidate = tzid
        // Some exporters prefix IANA names with a path ("/mozilla.org/20050126_1/Europe/Berlin").
        if candidate.hasPrefix("/") {
            let parts = candidate.split(separator: "/")
            if parts.count >= 2 { candidate = parts.suffix(parts.count >= 3 && parts[parts.count - 3].first?.isUppercase == true ? 3 : 2).joined(separator: "/") }
        }
        let names = [candidate, ICSWindowsZones.iana(forWindowsName: candidate)].compactMap { $0 }
        for name in names {
            if let zone = try? ZoneRules.named(name) {
                cache[tzid] = zone
                return zone
            }
        }
        throw DataError("unknown TZID '\(tzid)' (no VTIMEZONE in the file, not an IANA or Windows zone name)", at: location)
    }
}

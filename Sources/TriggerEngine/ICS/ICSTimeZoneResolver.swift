/// Turns the TZIDs a calendar names into `ZoneRules` (RFC 5545 §3.2.19, §3.6.5):
/// the file's own VTIMEZONE first (expanded by `ICSVTimeZone`, with the system's
/// rules of the same name before its first observance), then an IANA name known
/// to the system, then the Windows names Outlook writes (`W. Europe Standard
/// Time`). A TZID none of these knows is `nil`: the caller reads its times as
/// floating, with a warning.
@_spi(Internals) public struct ICSTimeZoneResolver: Sendable {
    private var fromFile: [String: ZoneRules] = [:]
    private var cache: [String: ZoneRules] = [:]
    /// TZIDs asked for that nothing knows (until a VTIMEZONE of that name comes):
    /// a calendar naming one on every event asks the system once.
    private var unknown = Set<String>()

    /// A resolver that knows no VTIMEZONE yet.
    @_spi(Internals) public init() {}

    /// Adds a VTIMEZONE component read from the file; `warn` hears of what in it
    /// could not be used (line numbers are the file's).
    @_spi(Internals) public mutating func add(vtimezone: ICSComponentText, file: String, limits: ICSLimits = .standard, warn: (ICSWarning) -> Void) {
        func report(_ kind: ICSWarning.Kind, _ line: Int) { warn(ICSWarning(kind, at: InputLocation(file: file, line: line))) }
        guard let tzid = vtimezone.first("TZID")?.value, !tzid.isEmpty else {
            return report(.badTimeZone("", reason: "no TZID; ignored the VTIMEZONE"), vtimezone.line)
        }
        unknown.remove(tzid)
        let system = Self.system(named: tzid)
        guard let rules = ICSVTimeZone(vtimezone, tzid: tzid, warn: report).rules(system: system, limits: limits, warn: report) else {
            report(.badTimeZone(tzid, reason: system == nil ? "no usable STANDARD or DAYLIGHT; its times are read as floating"
                                                            : "no usable STANDARD or DAYLIGHT; used the system zone of that name"), vtimezone.line)
            if let system { fromFile[tzid] = system }
            return
        }
        fromFile[tzid] = rules
    }

    /// Whether `tzid` was already answered from the system's zones (no VTIMEZONE
    /// of that name had been read when it was asked for).
    func resolvedFromSystem(_ tzid: String) -> Bool { cache[tzid] != nil }

    /// The rules for `tzid`, or nil when neither the file, nor the system's
    /// IANA zones, nor the Windows names know it.
    @_spi(Internals) public mutating func zone(named tzid: String) -> ZoneRules? {
        if let zone = fromFile[tzid] ?? cache[tzid] { return zone }
        guard !unknown.contains(tzid), let zone = Self.system(named: tzid) else {
            unknown.insert(tzid)
            return nil
        }
        cache[tzid] = zone
        return zone
    }

    /// The system's zone for a TZID: an IANA name, once stripped of a
    /// Mozilla-style path prefix (`/mozilla.org/20050126_1/Europe/Berlin`), or a
    /// Windows name (`ICSWindowsZones`).
    static func system(named tzid: String) -> ZoneRules? {
        var candidate = tzid
        if candidate.hasPrefix("/") {
            let parts = candidate.split(separator: "/")
            if parts.count >= 2 { candidate = parts.suffix(parts.count >= 3 && parts[parts.count - 3].first?.isUppercase == true ? 3 : 2).joined(separator: "/") }
        }
        for name in [candidate, ICSWindowsZones.iana(forWindowsName: candidate)].compactMap({ $0 }) {
            if let zone = try? ZoneRules.named(name) { return zone }
        }
        return nil
    }
}

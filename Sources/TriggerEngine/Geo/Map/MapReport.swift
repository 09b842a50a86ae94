/// What a map drew and what it left out (`MapSampling`'s rule at work).
public struct MapReport: Sendable, Equatable {
    /// Where the map looks.
    public var frame: MapFrame
    /// Fixes seen (the fixes the monitor used), and from how many devices.
    public var fixes = 0, devices = 0
    /// Devices whose tracks are drawn.
    public var trackDevices = 0
    /// Every `fixStride`-th fix of a drawn device is drawn (1: all).
    public var fixStride = 1
    /// Track fixes drawn (before fixes within half a pixel are merged).
    public var trackFixes = 0
    /// Events seen.
    public var events = 0
    /// Every `eventStride`-th event is drawn (1: all).
    public var eventStride = 1
    /// Event markers drawn.
    public var eventMarkers = 0

    /// Whether anything was left out.
    public var isSampled: Bool { trackDevices < devices || fixStride > 1 || eventStride > 1 }

    /// What was left out, in words, for the map's legend; `nil` when nothing was.
    public var note: String? {
        guard isSampled else { return nil }
        var parts: [String] = []
        if trackDevices < devices {
            parts.append("Tracks of \(Self.grouped(trackDevices)) of \(Self.grouped(devices)) devices (those with the smallest hash of their names).")
        }
        if fixStride > 1 {
            parts.append("Every \(Self.ordinal(fixStride)) fix of each track and its last: \(Self.grouped(trackFixes)) fixes drawn.")
        }
        if eventStride > 1 {
            parts.append("Every \(Self.ordinal(eventStride)) event: \(Self.grouped(eventMarkers)) of \(Self.grouped(events)) markers.")
        }
        return parts.joined(separator: " ")
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    private static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }
}

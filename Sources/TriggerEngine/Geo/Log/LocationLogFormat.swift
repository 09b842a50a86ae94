import Foundation

/// The formats of a location log (`trigger-eval geofence --fixes`).
public enum LocationLogFormat: String, Sendable, Hashable, CaseIterable {
    /// A header naming `device,time,lat,lon` (and optionally `accuracy`), one fix a row.
    case csv
    /// One JSON object a line: `{"device":…,"time":…,"lat":…,"lon":…}`.
    case ndjson
    /// GPX 1.0/1.1 track points; the device is the track's name, else the file's.
    case gpx

    /// The format a file name's extension implies (`.csv`, `.ndjson`/`.jsonl`/`.json`, `.gpx`),
    /// or `nil`.
    public init?(pathExtensionOf path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { self = .csv }
        else if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") { self = .ndjson }
        else if lower.hasSuffix(".gpx") { self = .gpx }
        else { return nil }
    }
}

/// Which CSV header names hold the fields of a fix (`--columns device=vehicle_id,…`).
public struct LocationLogColumns: Sendable, Hashable {
    /// The fields a fix has, by their standard header names.
    public static let fields = ["device", "time", "lat", "lon", "accuracy"]

    /// Header name for each field (the field's own name unless mapped).
    public private(set) var names: [String: String]

    /// The standard names: `device,time,lat,lon,accuracy`.
    public init() {
        names = Dictionary(uniqueKeysWithValues: Self.fields.map { ($0, $0) })
    }

    /// Parses `device=vehicle_id,time=timestamp,…`.
    /// - Throws: `DataError` for an unknown field or a malformed pair.
    public init(mapping text: String) throws(DataError) {
        self.init()
        for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw DataError("--columns: '\(pair)' is not FIELD=HEADER (for example device=vehicle_id)")
            }
            guard Self.fields.contains(parts[0]) else {
                throw DataError("--columns: unknown field '\(parts[0])'; the fields are \(Self.fields.joined(separator: ", "))")
            }
            names[parts[0]] = parts[1]
        }
    }
}

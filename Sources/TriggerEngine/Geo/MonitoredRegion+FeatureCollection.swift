import Foundation

/// Loading the regions of `trigger-eval geofence --regions`: a GeoJSON
/// FeatureCollection (RFC 7946 §3.3), one region per feature.
extension MonitoredRegion {
    /// The regions of a FeatureCollection file.
    ///
    /// A feature's identifier is its `id` member, else `properties.id`, else
    /// `properties.name`, else its index (from 0). Optional properties
    /// `notifyOnEntry`, `notifyOnExit` and `repeats` (booleans, default true).
    /// - Throws: `InputFileError` when the file cannot be read; `DataError` at the
    ///   file naming the feature otherwise.
    public static func load(featureCollectionAt path: String, repair: Bool = false) throws -> [MonitoredRegion] {
        let data: Data
        do {
            data = try Data(contentsOf: path == "-" ? URL(fileURLWithPath: "/dev/stdin") : URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "No such file or directory"
            throw InputFileError(path: path, reason: reason)
        }
        do {
            return try featureCollection(data, repair: repair)
        } catch {
            throw error.located(at: InputLocation(file: path))
        }
    }

    /// The regions of a FeatureCollection held in memory; see `load(featureCollectionAt:repair:)`.
    public static func featureCollection(_ data: Data, repair: Bool = false) throws(DataError) -> [MonitoredRegion] {
        let root = try GeoJSON.object(parsing: data, what: "the regions file")
        guard (root["type"] as? String) == "FeatureCollection", let features = root["features"] as? [Any] else {
            throw DataError("the regions file must be a GeoJSON FeatureCollection with a \"features\" array")
        }
        let context = GEOSContext()
        var regions: [MonitoredRegion] = []
        regions.reserveCapacity(features.count)
        var seen: [String: Int] = [:]
        for (index, item) in features.enumerated() {
            guard let feature = item as? [String: Any], (feature["type"] as? String) == "Feature" else {
                throw DataError("feature \(index): not a GeoJSON Feature object")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let identifier = identifier(of: feature, properties: properties) ?? String(index)
            let label = "feature '\(identifier)'"
            if let first = seen[identifier] {
                throw DataError("\(label) (index \(index)): the identifier is already used by feature index \(first); events would be ambiguous")
            }
            seen[identifier] = index
            guard let geometry = feature["geometry"] as? [String: Any] else {
                throw DataError("\(label): the feature has no geometry")
            }
            let region = try GeoJSON.region(geometry: geometry, properties: properties, label: label, repair: repair,
                                            in: context)
            regions.append(MonitoredRegion(
                identifier: identifier, region: region,
                notifyOnEntry: try flag(properties, "notifyOnEntry", label: label),
                notifyOnExit: try flag(properties, "notifyOnExit", label: label),
                repeats: try flag(properties, "repeats", label: label)))
        }
        return regions
    }

    private static func identifier(of feature: [String: Any], properties: [String: Any]) -> String? {
        for value in [feature["id"], properties["id"], properties["name"]] {
            if let text = value as? String { return text }
            if let number = GeoJSON.number(value) {
                return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            }
        }
        return nil
    }

    private static func flag(_ properties: [String: Any], _ key: String, label: String) throws(DataError) -> Bool {
        guard let value = properties[key], !(value is NSNull) else { return true }
        guard let flag = GeoJSON.boolean(value) else {
            throw DataError("\(label): properties.\(key) must be true or false")
        }
        return flag
    }
}

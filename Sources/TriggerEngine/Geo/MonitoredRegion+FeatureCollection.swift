import Foundation

/// Loading the regions of `trigger-eval geofence --regions`: a GeoJSON
/// FeatureCollection (RFC 7946 §3.3), one region per feature.
extension MonitoredRegion {
    /// The regions of a FeatureCollection file.
    ///
    /// A feature's identifier is its `id` member, else `properties.id`, else
    /// `properties.name`, else its index (from 0). Optional properties
    /// `notifyOnEntry`, `notifyOnExit` and `repeats` (booleans, default true).
    /// - Throws: `InputError.file` when the file cannot be read; `InputError.data`
    ///   at the file naming the feature otherwise.
    public static func load(featureCollectionAt path: String, repair: Bool = false) throws(InputError) -> [MonitoredRegion] {
        try InputError.reading { try reading(featureCollectionAt: path, repair: repair) }
    }

    /// `load(featureCollectionAt:repair:)` with the reader's own errors.
    package static func reading(featureCollectionAt path: String, repair: Bool) throws -> [MonitoredRegion] {
        let data: Data
        do {
            data = try (path == "-" ? nil : ParallelChunks.contents(ofRegularFile: path))
                ?? Data(contentsOf: path == "-" ? URL(fileURLWithPath: "/dev/stdin") : URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "No such file or directory"
            throw InputFileError(path: path, reason: reason)
        }
        do {
            return try reading(featureCollection: data, repair: repair)
        } catch {
            throw error.located(at: InputLocation(file: path))
        }
    }

    /// The regions of a FeatureCollection held in memory; see `load(featureCollectionAt:repair:)`.
    /// - Complexity: one pass over the bytes (`GeoJSONFeatureCollection`); a file
    ///   of another shape, or with an error, is read again the general way.
    /// - Throws: `InputError.data` naming the feature and what is wrong.
    public static func featureCollection(_ data: Data, repair: Bool = false) throws(InputError) -> [MonitoredRegion] {
        do {
            return try reading(featureCollection: data, repair: repair)
        } catch {
            throw .data(error)
        }
    }

    /// `featureCollection(_:repair:)` with the reader's own error.
    package static func reading(featureCollection data: Data, repair: Bool) throws(DataError) -> [MonitoredRegion] {
        if let typed = GeoJSONFeatureCollection(parsing: data) {
            return try regions(of: typed, repair: repair)
        }
        return try generalFeatureCollection(data, repair: repair)
    }

    /// The general path: any JSON through `JSONDecoder` into plain values, every
    /// rule checked with a message naming the feature. `featureCollection` takes it
    /// for what the byte reader declines; tests compare the two.
    static func generalFeatureCollection(_ data: Data, repair: Bool) throws(DataError) -> [MonitoredRegion] {
        let root = try GeoJSON.object(parsing: data, what: "the regions file")
        guard root["type"]?.text == "FeatureCollection", case .array(let features)? = root["features"] else {
            throw DataError("the regions file must be a GeoJSON FeatureCollection with a \"features\" array")
        }
        let context = GEOSContext()
        var regions: [MonitoredRegion] = []
        regions.reserveCapacity(features.count)
        var seen: [String: Int] = [:]
        for (index, item) in features.enumerated() {
            guard case .object(let feature) = item, feature["type"]?.text == "Feature" else {
                throw DataError("feature \(index): not a GeoJSON Feature object")
            }
            let properties = feature["properties"]?.members ?? [:]
            let identifier = identifier(of: feature, properties: properties) ?? String(index)
            let label = try register(identifier, index: index, in: &seen)
            guard case .object(let geometry)? = feature["geometry"] else {
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

    /// The regions of a FeatureCollection read the fast way: the same rules
    /// as the general path, on typed values.
    ///
    /// Features are checked on every core (validity is most of the work), each
    /// worker with its own GEOS context; the error reported is the one the
    /// general path meets first, going feature by feature.
    package static func regions(of collection: GeoJSONFeatureCollection, repair: Bool) throws(DataError) -> [MonitoredRegion] {
        let features = collection.features
        var identifiers: [String] = []
        var labels: [String] = []
        identifiers.reserveCapacity(features.count)
        labels.reserveCapacity(features.count)
        var seen: [String: Int] = [:]
        // The first repeated identifier, if any: it counts as that feature's first error.
        var repeated: (index: Int, error: DataError)?
        for (index, feature) in features.enumerated() {
            let properties = feature.properties
            let named = [feature.id, properties.id, properties.name].lazy.compactMap { $0 }.first
            let identifier = named.map { (scalar) -> String in
                switch scalar {
                case .text(let text): return text
                case .number(let number): return identifierText(number)
                }
            } ?? String(index)
            identifiers.append(identifier)
            do {
                labels.append(try register(identifier, index: index, in: &seen))
            } catch {
                repeated = (index, error)
                break
            }
        }
        let checked = repeated?.index ?? features.count
        let names = labels
        let built = ParallelChunks.map(count: checked, weight: { features[$0].geometry.vertexCount }) {
            (index: Int, context: GEOSContext) throws(DataError) -> Region in
            let feature = features[index]
            switch feature.geometry {
            case .point(let center):
                return try GeoJSON.circle(center: center, radius: feature.properties.radius, label: names[index])
            case .polygon(let rings):
                return try Region.polygons([rings], label: names[index], repair: repair, in: context)
            case .multiPolygon(let polygons):
                return try Region.polygons(polygons, label: names[index], repair: repair, in: context)
            }
        }
        var regions: [MonitoredRegion] = []
        regions.reserveCapacity(checked)
        for (index, result) in built.enumerated() {
            let properties = features[index].properties
            switch result {
            case .success(let region):
                regions.append(MonitoredRegion(identifier: identifiers[index], region: region,
                                               notifyOnEntry: properties.notifyOnEntry ?? true,
                                               notifyOnExit: properties.notifyOnExit ?? true, repeats: properties.repeats ?? true))
            case .failure(let error):
                throw error
            }
        }
        if let repeated { throw repeated.error }
        return regions
    }

    /// Records `identifier` for the feature at `index` and returns its label for
    /// messages; a repeated identifier is an error (events would be ambiguous).
    private static func register(_ identifier: String, index: Int, in seen: inout [String: Int]) throws(DataError) -> String {
        let label = "feature '\(identifier)'"
        if let first = seen[identifier] {
            throw DataError("\(label) (index \(index)): the identifier is already used by feature index \(first); events would be ambiguous")
        }
        seen[identifier] = index
        return label
    }

    private static func identifier(of feature: [String: GeoJSON.Value], properties: [String: GeoJSON.Value]) -> String? {
        for value in [feature["id"], properties["id"], properties["name"]] {
            if let text = value?.text { return text }
            if let number = GeoJSON.number(value) { return identifierText(number) }
        }
        return nil
    }

    /// A numeric identifier as text: integers without a fraction.
    private static func identifierText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    private static func flag(_ properties: [String: GeoJSON.Value], _ key: String, label: String) throws(DataError) -> Bool {
        guard let value = properties[key], value != .null else { return true }
        guard let flag = GeoJSON.boolean(value) else {
            throw DataError("\(label): properties.\(key) must be true or false")
        }
        return flag
    }
}

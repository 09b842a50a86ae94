/// A run of parsed log rows in file order: what a reader hands to the monitor.
/// A row that could not be parsed keeps its place with device −1 and a message,
/// so that `--strict` can stop at the first bad line.
package struct FixBatch: Sendable {
    /// One parsed row.
    package struct Row: Sendable {
        package var device: Int32
        package var line: Int32
        package var time: Double
        package var lat: Double
        package var lon: Double
        /// NaN when the row has no accuracy.
        package var accuracy: Double
    }

    package var rows: [Row] = []
    /// Why rows with device −1 were bad, by row position.
    package var problems: [Int: String] = [:]
    /// Devices first seen in this batch, in index order (they follow those of
    /// earlier batches), so that the consumer can name them without sharing the table.
    package var newDevices: [String] = []
    /// Per row, where the regions holding it start in `coveredRegions` and how many
    /// there are, when a `RegionCoverage` has filled them in (`fillCoverage`).
    package var coveredStart: [Int] = []
    package var coveredCount: [Int32] = []
    package var coveredRegions: [Int32] = []
    /// The rows to find coverage for, in spatial order (`RegionCoverage.orderCoverage`).
    package var coverageKeys: [UInt64] = []
    /// The positions (longitude, latitude) of the rows of `coverageKeys`, in the
    /// same order, so that the tests read them one after another.
    package var coveragePoints: [(x: Double, y: Double)] = []
    /// Whether the reader ended the batch early because no further line was
    /// ready (a log on a pipe, written as it goes): its events are written out
    /// and flushed before the next line is waited for.
    package var endsWhereInputWaits = false

    package init() {}

    package var count: Int { rows.count }

    package mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        problems.removeAll(keepingCapacity: true)
        newDevices.removeAll(keepingCapacity: true)
        coveredStart.removeAll(keepingCapacity: true)
        coveredCount.removeAll(keepingCapacity: true)
        coveredRegions.removeAll(keepingCapacity: true)
        coverageKeys.removeAll(keepingCapacity: true)
        coveragePoints.removeAll(keepingCapacity: true)
        endsWhereInputWaits = false
    }

    @inline(__always)
    package mutating func append(device: Int32, time: Double, lat: Double, lon: Double, accuracy: Double, line: Int) {
        rows.append(Row(device: device, line: Int32(truncatingIfNeeded: line), time: time, lat: lat, lon: lon,
                        accuracy: accuracy))
    }

    package mutating func appendProblem(_ message: String, line: Int) {
        problems[count] = message
        append(device: -1, time: 0, lat: 0, lon: 0, accuracy: .nan, line: line)
    }
}

/// A run of parsed log rows in file order, in columns: what a reader hands to
/// the monitors. A row that could not be parsed keeps its place with device −1
/// and a message, so that `--strict` can stop at the first bad line.
package struct FixBatch {
    package var device: [Int32] = []
    package var time: [Double] = []
    package var lat: [Double] = []
    package var lon: [Double] = []
    /// NaN when the row has no accuracy.
    package var accuracy: [Double] = []
    package var line: [Int] = []
    /// Why rows with device −1 were bad, by row position.
    package var problems: [Int: String] = [:]

    package init() {}

    package var count: Int { device.count }

    package mutating func removeAll() {
        device.removeAll(keepingCapacity: true)
        time.removeAll(keepingCapacity: true)
        lat.removeAll(keepingCapacity: true)
        lon.removeAll(keepingCapacity: true)
        accuracy.removeAll(keepingCapacity: true)
        line.removeAll(keepingCapacity: true)
        problems.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    package mutating func append(device: Int32, time: Double, lat: Double, lon: Double, accuracy: Double, line: Int) {
        self.device.append(device)
        self.time.append(time)
        self.lat.append(lat)
        self.lon.append(lon)
        self.accuracy.append(accuracy)
        self.line.append(line)
    }

    package mutating func appendProblem(_ message: String, line: Int) {
        problems[count] = message
        append(device: -1, time: 0, lat: 0, lon: 0, accuracy: .nan, line: line)
    }
}

/// Something that watches a `GeofenceRun` go by (a `GeofenceMap`, say): every fix
/// the monitor used and every event, in the order of the log, on the thread that
/// runs the monitor.
///
/// An observer sees and changes nothing else: the events and their output are the
/// same with or without one. A run without an observer pays one `nil` check a fix.
package protocol GeofenceRunObserver: AnyObject {
    /// A fix the monitor used (skipped fixes are not shown: bad values, too
    /// inaccurate, out of order, repeated).
    /// - Parameters:
    ///   - device: the device's number: 0, 1, 2, … in the order devices first
    ///     appear in the log (a device whose first rows were skipped keeps its number).
    ///   - name: the device's identifier.
    ///   - time: seconds since 1970-01-01T00:00:00Z.
    func geofenceRun(usedFixOf device: Int32, named name: String, time: Double, latitude: Double, longitude: Double)

    /// An event, after the fix that caused it was shown.
    /// - Parameter region: the region's position in the run's regions.
    func geofenceRun(event kind: RegionEvent.Kind, region: Int, device: Int32, time: Double,
                     latitude: Double, longitude: Double)
}

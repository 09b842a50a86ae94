import Foundation

extension GeofenceRun {
    /// Reads the whole log (once: a run is used up by it) and calls `handle`
    /// with its events as values, a batch of fixes at a time, in the order of
    /// the fixes that caused them: the events `run(write:)` would encode.
    /// - Throws: as `run(write:)`, or what `handle` throws (the run stops there).
    public func run(events handle: ([RegionEvent]) throws -> Void,
                    progress: ((Int) -> Void)? = nil) throws -> GeofenceSummary {
        try withoutActuallyEscaping(handle) { handle in
            eventSink = handle
            defer { eventSink = nil }
            return try run(write: { _ in }, progress: progress)
        }
    }
}

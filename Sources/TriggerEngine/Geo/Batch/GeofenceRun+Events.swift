import Foundation

extension GeofenceRun {
    /// Reads the whole log (once: a run is used up by it) and calls `handle`
    /// with its events as values, a batch of fixes at a time, in the order of
    /// the fixes that caused them: the events `run(write:)` would encode.
    /// - Throws: as `run(write:)`, or `InputError.handler` with what `handle`
    ///   threw (the run stops there).
    public func run(events handle: ([RegionEvent]) throws -> Void,
                    progress: ((Int) -> Void)? = nil) throws(InputError) -> GeofenceSummary {
        try InputError.reading {
            try withoutActuallyEscaping(handle) { handle in
                eventSink = { try InputError.calling(handle, with: $0) }
                defer { eventSink = nil }
                return try running(write: { _ in }, progress: progress)
            }
        }
    }
}

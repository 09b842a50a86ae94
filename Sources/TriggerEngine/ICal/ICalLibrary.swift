internal import CICal
import Synchronization

/// Process-wide libical set-up and the lock around its shared time-zone state.
///
/// Two things in libical are global. First, `icalerror_set_errors_are_fatal`:
/// when errors are fatal, libical aborts the process on malformed input, so it is
/// switched off once, before any other call. Second, the built-in time-zone cache:
/// `icaltimezone_get_builtin_timezone` fills a shared array on first use, and a
/// zone expands its table of changes lazily on lookup, which has raced when
/// several threads did either at once. Every call that can touch that state runs
/// inside `withTimeZoneLock`.
enum ICalLibrary {
    private static let setUp: Void = {
        icalerror_set_errors_are_fatal(0)
    }()

    private static let zoneLock = Mutex<Void>(())

    /// Makes sure libical is configured; cheap after the first call.
    static func prepare() {
        _ = setUp
    }

    /// Runs `body` holding the lock that serialises libical's time-zone state.
    static func withTimeZoneLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        prepare()
        return try zoneLock.withLock { _ in try body() }
    }
}

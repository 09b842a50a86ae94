internal import CICal

/// A libical time zone (`icaltimezone`), either one of libical's built-in zones,
/// which libical owns and caches for the life of the process, or one made from a
/// file's VTIMEZONE, which this object owns and frees with `icaltimezone_free`.
@_spi(Internals) public final class ICalTimeZone {
    package let handle: OpaquePointer
    private let isOwned: Bool

    private init(handle: OpaquePointer, isOwned: Bool) {
        self.handle = handle
        self.isOwned = isOwned
    }

    deinit {
        if isOwned { ICalLibrary.withTimeZoneLock { icaltimezone_free(handle, 1) } }
    }

    /// libical's built-in zone for an IANA name (`icaltimezone_get_builtin_timezone`,
    /// NULL when unknown). The first lookup loads libical's shared zone list, so it
    /// runs under the time-zone lock.
    package static func builtin(named name: String) throws(ICalError) -> ICalTimeZone {
        let zone = ICalLibrary.withTimeZoneLock { icaltimezone_get_builtin_timezone(name) }
        guard let zone else { throw ICalError(code: "unknown time zone", context: "TZID \(name)") }
        return ICalTimeZone(handle: zone, isOwned: false)
    }

    /// libical's UTC zone (`icaltimezone_get_utc_timezone`), owned by libical.
    package static var utc: ICalTimeZone {
        ICalTimeZone(handle: ICalLibrary.withTimeZoneLock { icaltimezone_get_utc_timezone() }, isOwned: false)
    }

    /// A zone defined by a VTIMEZONE component. The zone takes a copy of the
    /// component (`icaltimezone_set_component` owns what it is given), so
    /// `vtimezone` keeps its own owner.
    @_spi(Internals) public static func from(vtimezone: ICalComponent) throws(ICalError) -> ICalTimeZone {
        let copy = try vtimezone.clone()
        let outcome: Result<OpaquePointer, ICalError> = ICalLibrary.withTimeZoneLock {
            guard let zone = icaltimezone_new() else {
                return .failure(ICalError(code: "no memory", context: "creating a VTIMEZONE zone"))
            }
            ICalError.clear()
            // Returns 1 on success, 0 when the component has no usable TZID.
            guard icaltimezone_set_component(zone, copy.handle) == 1 else {
                icaltimezone_free(zone, 1)
                return .failure(ICalError.current(while: "reading a VTIMEZONE")
                    ?? ICalError(code: "VTIMEZONE without TZID", context: "reading a VTIMEZONE"))
            }
            // From here the zone owns the copy and frees it in icaltimezone_free.
            copy.relinquishToZone()
            return .success(zone)
        }
        return ICalTimeZone(handle: try outcome.get(), isOwned: true)
    }

    /// The zone's TZID (`icaltimezone_get_tzid`).
    package var tzid: String {
        ICalLibrary.withTimeZoneLock { icaltimezone_get_tzid(handle).map { String(cString: $0) } ?? "" }
    }

    /// The offset from UTC, in seconds, at the UTC instant given as epoch seconds
    /// (`icaltimezone_get_utc_offset_of_utc_time`, which expands the zone's table
    /// of changes as needed, hence the lock).
    @_spi(Internals) public func utcOffset(atEpochSeconds seconds: Int) -> Int {
        let time = icaltime_from_timet_with_zone(time_t(seconds), 0, icaltimezone_get_utc_timezone())
        var isDaylight: Int32 = 0
        var mutable = time
        return ICalLibrary.withTimeZoneLock {
            Int(icaltimezone_get_utc_offset_of_utc_time(handle, &mutable, &isDaylight))
        }
    }
}

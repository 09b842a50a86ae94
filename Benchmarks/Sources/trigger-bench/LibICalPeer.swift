import CLibICal
@_spi(Internals) import TriggerEngine

/// libical as the calendar benchmark's peer: set up once, errors read back.
enum LibICalPeer {
    /// libical aborts on malformed input unless told not to; said once, before any call.
    private static let configured: Void = { icalerror_set_errors_are_fatal(0) }()

    static func prepare() { _ = configured }

    /// What libical's thread-local `icalerrno` says went wrong, if anything
    /// (the `icalerrno` macro itself does not import into Swift).
    static func error(while context: String) -> ICalError? {
        let code = icalerrno_return().pointee
        return code == ICAL_NO_ERROR ? nil : ICalError(code: String(cString: icalerror_strerror(code)), context: context)
    }
}

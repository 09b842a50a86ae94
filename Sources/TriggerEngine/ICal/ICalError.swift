internal import CICal

/// A failure reported by libical: its error code (`icalerrno`) and what we were doing.
public struct ICalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libical's name for the error, from `icalerror_strerror`, for example
    /// "MALFORMEDDATA: An input string was not correctly formed or a component has missing or extra properties".
    public var code: String
    /// What the library was doing, with the offending value where there is one.
    public var context: String

    /// Creates an error from a code name and a context.
    public init(code: String, context: String) {
        self.code = code
        self.context = context
    }

    public var description: String { "\(context): \(code)" }
}

extension ICalError {
    /// The error libical's thread-local `icalerrno` holds now, or `nil` when it
    /// holds none. `icalerrno` is a macro over `icalerrno_return()`, which Swift
    /// cannot import, so the function is called directly.
    static func current(while context: @autoclosure () -> String) -> ICalError? {
        let errno = icalerrno_return().pointee
        guard errno != ICAL_NO_ERROR else { return nil }
        return ICalError(code: String(cString: icalerror_strerror(errno)), context: context())
    }

    /// Clears libical's thread-local error state before a call whose outcome is
    /// read from it.
    static func clear() {
        icalerror_clear_errno()
    }
}

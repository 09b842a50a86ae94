/// A failure reported by GEOS: the C function that failed and the message GEOS's
/// error handler delivered for it.
public struct GEOSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The GEOS C function whose call failed, for example `GEOSWKTReader_read_r`.
    public var function: String
    /// The message GEOS's error handler received, or a description of the failure
    /// when GEOS reported none.
    public var message: String

    /// Creates an error for a failed call of `function`.
    public init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    public var description: String { "GEOS \(function): \(message)" }
}

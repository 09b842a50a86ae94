/// Something in a calendar that was handled but deserves a look (a rule with no
/// instance, an expansion cut at `maxInstances`), with where it is.
public struct ICSWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was skipped or doubtful.
    public var message: String
    /// The file and line it concerns.
    public var location: InputLocation
    public var description: String { "\(location): \(message)" }
}

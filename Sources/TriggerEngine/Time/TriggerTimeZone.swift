/// The zone a calendar or recurrence trigger is evaluated in.
///
/// Apple's calendar triggers follow the device's current zone; a scheduler on a
/// server has no device, so a trigger either names its zone or floats, and the
/// scheduler supplies the zone when it evaluates (the recipient's current zone).
public enum TriggerTimeZone: Sendable, Hashable {
    /// Always this zone.
    case fixed(ZoneRules)
    /// Whatever zone the evaluator supplies.
    case floating

    /// The rules to use when the evaluator's zone is `floatingZone`.
    @inlinable
    public func rules(floatingIn floatingZone: ZoneRules) -> ZoneRules {
        switch self {
        case .fixed(let rules): return rules
        case .floating: return floatingZone
        }
    }
}

/// What a repeating or missed request does with fires that fell while the
/// dispatcher was down, after Quartz's misfire instructions
/// (`MISFIRE_INSTRUCTION_FIRE_ONCE_NOW`, `…_DO_NOTHING`, `…_IGNORE_MISFIRE_POLICY`).
public enum MisfirePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Fire once at restart for all the missed fires, then go on from the trigger.
    case fireOnceNow
    /// Drop the missed fires; the next fire is the trigger's next future one.
    case skipToNext
    /// Fire every missed one, in order, at restart.
    case fireAll
}

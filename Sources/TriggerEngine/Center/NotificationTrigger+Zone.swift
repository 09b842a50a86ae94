extension NotificationTrigger {
    /// The zone of a calendar or recurrence trigger with a fixed zone (output
    /// instants carry its offset); `nil` for floating and other triggers.
    package var fixedZone: ZoneRules? {
        switch self {
        case .calendar(let trigger):
            if case .fixed(let rules) = trigger.timeZone { return rules }
        case .recurrence(let trigger):
            if case .fixed(let rules) = trigger.timeZone { return rules }
        default: break
        }
        return nil
    }
}

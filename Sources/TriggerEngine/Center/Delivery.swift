/// One delivery as the center made it: the notification, how it was presented,
/// and the sound actually played.
public struct Delivery: Sendable, Hashable {
    public var notification: DeliveredNotification
    /// What the trigger was (`calendar`, `timeInterval`, `location`, `recurrence`, `push`).
    public var triggerKind: String
    /// Presentation options: the delegate's in the foreground; `[.list]` for
    /// provisional (quiet) recipients; banner, list, sound and badge otherwise.
    public var presentation: PresentationOptions
}

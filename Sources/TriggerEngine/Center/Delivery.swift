import Foundation

/// One delivery as the center hands it over: the notification, the fire it
/// came from, how it is presented.
public struct Delivery: Sendable, Hashable {
    /// The fire's identity: the same if this fire is handed over again (after a
    /// failed hand-over or a crash), different for every other fire.
    public var id: DeliveryID
    /// The notification: its request as delivered (the sound rule applied) and
    /// its date, the instant it fired.
    public var notification: DeliveredNotification
    /// The instant the fire was due: `notification.date`, except for a fire
    /// missed while nothing ran (fired at restart under `MisfirePolicy.fireOnceNow`).
    public var due: Date
    /// What the trigger was (`calendar`, `timeInterval`, `location`, `recurrence`, `push`).
    public var triggerKind: TriggerKind
    /// Presentation options: the delegate's in the foreground; `[.list]` for
    /// provisional (quiet) recipients; banner, list, sound and badge otherwise.
    public var presentation: PresentationOptions
    /// For a location request: the event that fired it (enter, exit or dwell),
    /// with the device, the region and the fix.
    public var regionEvent: RegionEvent?
    /// The registered category of the content's `categoryIdentifier`; `nil`
    /// when there is none (Apple then shows the notification without actions).
    public var category: NotificationCategory?

    package init(id: DeliveryID, notification: DeliveredNotification, due: Date, triggerKind: TriggerKind,
                 presentation: PresentationOptions, regionEvent: RegionEvent?, category: NotificationCategory?) {
        self.id = id
        self.notification = notification
        self.due = due
        self.triggerKind = triggerKind
        self.presentation = presentation
        self.regionEvent = regionEvent
        self.category = category
    }
}

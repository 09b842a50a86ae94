import Foundation

/// A fire caused by an event rather than the clock: a location request whose
/// region a device entered or left, or a push. It is stored the moment the
/// event is taken (so an acknowledged fix or push is never lost) and handed
/// over by the same path as clock fires; the store forgets it once the
/// hand-over is committed.
package struct EventFire: Sendable, Hashable {
    /// Its identity, fixed when the event is taken.
    package var id: DeliveryID
    /// The request to deliver (a one-shot location request has already left
    /// the pending requests; a push never was one).
    package var request: NotificationRequest
    package var recipient: String
    /// The event's instant: the fix's time, or when the push arrived.
    package var due: Date
    /// The region event, for a location fire.
    package var regionEvent: RegionEvent?

    package init(id: DeliveryID, request: NotificationRequest, recipient: String, due: Date, regionEvent: RegionEvent?) {
        self.id = id
        self.request = request
        self.recipient = recipient
        self.due = due
        self.regionEvent = regionEvent
    }
}

import Foundation

extension NotificationRequest {
    /// Where a request's first fire is.
    package enum FirstFire {
        case at(Date)
        /// Location and push requests wait for their event.
        case onEvent
        /// The trigger never fires after now.
        case never

        package var date: Date? {
            if case .at(let date) = self { return date }
            return nil
        }
    }

    /// The first fire of this request added at `now`: at once without a
    /// trigger, else its trigger's first fire after `now` (floating triggers
    /// read in `floatingZone`). The embedded center and a cluster node both place
    /// an add by it.
    package func firstFire(now: Date, floatingZone: ZoneRules) -> FirstFire {
        switch trigger {
        case nil: return .at(now)
        case .location?, .push?: return .onEvent
        case let trigger?:
            return trigger.nextTriggerDate(after: now, addedAt: added ?? now, in: floatingZone).map(FirstFire.at) ?? .never
        }
    }
}

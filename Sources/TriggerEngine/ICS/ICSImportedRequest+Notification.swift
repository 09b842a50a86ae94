import Foundation

extension ICSImportedRequest {
    /// The request for the notification center: this content and a one-shot
    /// calendar trigger matching every date component of the fire time in UTC.
    /// - Throws: `DataError` only if the calendar trigger rejects its components
    ///   (it cannot for a real instant).
    public func notificationRequest() throws(DataError) -> NotificationRequest {
        let fields = ZoneRules.utc.localTime(atUTC: fireTime).fields
        let components = DateComponents(year: fields.year, month: fields.month, day: fields.day,
                                        hour: fields.hour, minute: fields.minute, second: fields.second)
        let trigger = try CalendarTrigger(dateMatching: components, repeats: false, timeZone: .fixed(.utc))
        return NotificationRequest(identifier: identifier, content: NotificationContent(title: title, body: body),
                                   trigger: .calendar(trigger))
    }
}

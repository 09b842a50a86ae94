import Foundation

/// A notification request as the store writes it in JSON: delivered
/// notifications, event fires, and every pending row of the PostgreSQL store.
/// (SQLite's pending rows are the same fields in columns, `PendingTable`.)
///
/// The store owns this form. The public types' `Codable` is the command
/// line's JSON (`trigger-eval simulate`, `run`); keeping the two apart means
/// either can change without the other, and a change here comes with a schema
/// migration (`NotificationStore+Schema`, `PostgresStore+Schema`). Empty
/// strings and defaults are left out to keep rows small.
package struct StoredRequest: Codable {
    var id: String
    var title: String?
    var subtitle: String?
    var body: String?
    var badge: Int?
    var sound: String?
    var category: String?
    var thread: String?
    /// Plain JSON values (RFC 8259), which `UserInfoValue` maps one to one:
    /// the one public `Codable` the store writes, as it is JSON's own shape.
    var userInfo: [String: UserInfoValue]?
    var trigger: TriggerColumns?
    /// `StoredCodes.code(of:)`; absent for `fireOnceNow`.
    var misfire: Int?
    /// Seconds since 1970.
    var added: Double?

    package init(_ request: NotificationRequest) throws {
        let content = request.content
        id = request.identifier
        title = content.title.nilIfEmpty
        subtitle = content.subtitle.nilIfEmpty
        body = content.body.nilIfEmpty
        badge = content.badge
        sound = content.sound.map(StoredCodes.text(of:))
        category = content.categoryIdentifier.nilIfEmpty
        thread = content.threadIdentifier.nilIfEmpty
        userInfo = content.userInfo.isEmpty ? nil : content.userInfo
        trigger = request.trigger == nil ? nil : try TriggerColumns(request.trigger)
        let misfire = StoredCodes.code(of: request.misfirePolicy)
        self.misfire = misfire == 0 ? nil : misfire
        added = request.added?.timeIntervalSince1970
    }

    package func request() throws -> NotificationRequest {
        let content = NotificationContent(title: title ?? "", subtitle: subtitle ?? "", body: body ?? "", badge: badge,
                                          sound: sound.map(StoredCodes.sound(text:)),
                                          userInfo: userInfo ?? [:],
                                          categoryIdentifier: category ?? "", threadIdentifier: thread ?? "")
        return NotificationRequest(identifier: id, content: content, trigger: try trigger?.trigger(),
                                   misfirePolicy: try StoredCodes.misfirePolicy(code: misfire ?? 0),
                                   added: added.map { Date(timeIntervalSince1970: $0) })
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

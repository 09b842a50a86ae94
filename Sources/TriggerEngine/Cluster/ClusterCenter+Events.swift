#if PostgreSQL
import Foundation
@_spi(Internals) import TriggerEngine
internal import PostgresNIO

/// Events in a cluster: location fixes, pushes and responses may arrive at any node.
///
/// **Per-device region state lives in the database**, not with a node: the
/// row of a device in `te_devices` holds its latest fix, and a fix is taken in
/// a transaction that locks that device (an advisory lock on its name), so a
/// device's fixes are taken one at a time, in order, whichever nodes they
/// reach. Each node keeps its own copy of the location requests (reloaded when
/// the `locations` counter moved) and of the devices' states; when the fix in
/// the database is not the last one this node saw of the device, the node puts
/// the device back at that fix first (`LocationRequests.resume`). The event
/// fires are written in the same transaction, and any node delivers them.
///
/// Cost per fix: one transaction of four to six statements (lock, counter,
/// device row, event fires and consumed requests when something fired), about
/// a millisecond on loopback; the geometry is the same as in one process.
/// Routing devices to owner nodes instead would save the database round trips
/// but needs a hand-over protocol when a node dies, and every fix would still
/// have to be forwarded from the node it reached.
extension ClusterCenter {
    /// Takes one location fix of `recipient`'s device: the pending location
    /// requests of that recipient whose region it enters or leaves fire (a
    /// one-shot one then leaves the pending requests); any node delivers them.
    /// - Throws: `CenterError.fixRefused` (an invalid value, not after the
    ///   device's previous fix, too old or too far ahead), `DataError`, `CenterError.store`.
    public func ingest(_ fix: LocationFix, for recipient: String = "") async throws {
        try StoreKey.check(fix.device, "device")
        // The order against the device's previous fix is checked in the database, under the device's lock.
        if let refusal = locationPolicy.refusal(of: fix, after: nil, now: clock.now()) { throw CenterError.fixRefused(refusal) }
        do {
            try await store.transaction { connection in try await self.take(fix, recipient: recipient, connection) }
        } catch let error as CenterError {
            throw error
        } catch let error as DataError {
            throw error
        } catch {
            throw CenterError.store(StoreError(classifyingPostgres: error))
        }
    }

    private func take(_ fix: LocationFix, recipient: String, _ connection: PostgresConnection) async throws {
        let logger = store.logger
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(fix.device), 7))", logger: logger)
        try await refreshLocations(connection)
        var previous: LocationFix?
        let rows = try await connection.query("""
            SELECT time, latitude, longitude, accuracy FROM te_devices WHERE device = \(fix.device)
            """, logger: logger)
        for try await (time, latitude, longitude, accuracy) in rows.decode((Double, Double, Double, Double?).self) {
            previous = LocationFix(device: fix.device, time: Date(storedSeconds: time),
                                   coordinate: Coordinate(latitude: latitude, longitude: longitude), accuracy: accuracy)
        }
        if let refusal = locationPolicy.refusal(of: fix, after: previous, now: clock.now()) { throw CenterError.fixRefused(refusal) }
        let seen = locations.lastFix(of: fix.device)
        if seen?.time != previous?.time || seen?.coordinate != previous?.coordinate {
            try locations.resume(device: fix.device, at: previous)
        }
        let events: [RegionEvent]
        do {
            events = try locations.events(for: fix)
        } catch let error as DataError {
            throw CenterError.store(StoreError(classifyingPostgres: error))
        }
        var changes: [StoreChange] = []
        var consumed: [String] = []
        for event in events where !consumed.contains(event.region) {
            guard let (request, owner) = locationRequests[event.region], owner == recipient,
                  case .location(let trigger)? = request.trigger else { continue }
            changes.append(.insertEventFire(EventFire(id: .regionEvent(event, identifier: request.identifier), request: request,
                                                      recipient: recipient, due: event.time, regionEvent: event)))
            if !trigger.repeats { consumed.append(request.identifier) }
        }
        if !consumed.isEmpty { changes.append(.removePending(consumed)) }
        for change in changes { try change.validate() }
        for change in changes { try await store.apply(change, connection) }
        try await connection.query("""
            INSERT INTO te_devices(device, time, latitude, longitude, accuracy)
            VALUES (\(fix.device), \(fix.time.storedSeconds), \(fix.coordinate.latitude), \(fix.coordinate.longitude), \(fix.accuracy))
            ON CONFLICT (device) DO UPDATE SET time = excluded.time, latitude = excluded.latitude,
                longitude = excluded.longitude, accuracy = excluded.accuracy
            """, logger: logger)
    }

    /// Reloads this node's copy of the location requests when they changed.
    private func refreshLocations(_ connection: PostgresConnection) async throws {
        let logger = store.logger
        var version: Int64 = 0
        for try await value in try await connection.query("SELECT value FROM te_counters WHERE name = 'locations'",
                                                          logger: logger).decode(Int64.self) { version = value }
        guard version != locationsVersion else { return }
        var requests: [String: (NotificationRequest, String)] = [:]
        var rebuilt = LocationRequests()
        let rows = try await connection.query("""
            SELECT identifier, recipient, request FROM te_pending WHERE is_location ORDER BY add_order
            """, logger: logger)
        for try await (identifier, recipient, json) in rows.decode((String, String, String).self) {
            guard let request = try? PostgresStore.decodeRequest(json, what: "request"),
                  case .location(let trigger)? = request.trigger else { continue }
            requests[identifier] = (request, recipient)
            rebuilt.insert(identifier: identifier, trigger: trigger, defaultOptions: locationPolicy.options)
        }
        locations = rebuilt
        locationRequests = requests
        locationsVersion = version
    }

    /// Delivers a remote notification through the cluster: stored as an event
    /// fire due at once, handed over by whichever node claims it first.
    /// - Throws: `DataError` for a payload over 4096 bytes or not in APNs form; `CenterError.store`.
    public func receivePush(_ payload: Data, identifier: String = UUID().uuidString, for recipient: String = "",
                            at date: Date? = nil) async throws {
        let content = try PushPayload(data: payload).content
        let date = date ?? clock.now()
        let request = NotificationRequest(identifier: identifier, content: content, trigger: .push, added: date)
        try await commit([.insertEventFire(EventFire(id: .push(identifier: identifier, at: date), request: request,
                                                     recipient: recipient, due: date, regionEvent: nil))])
    }

    /// Checks a response to a delivered notification against its category (as
    /// `UserNotificationCenter.respond`), from the cluster's delivered list.
    /// - Returns: the response, `nil` for a dismiss whose category lacks `customDismissAction`.
    /// - Throws: `CenterError.notDelivered`, `.actionNotInCategory` or
    ///   `.actionTakesNoText`; `CenterError.store` when the database fails.
    public func respond(toIdentifier identifier: String, action: String, text: String? = nil,
                        at date: Date) async throws -> NotificationResponse? {
        guard let notification = try await reading({ try await store.lastDelivered(identifier: identifier) }) else {
            throw CenterError.notDelivered(identifier: identifier)
        }
        let categories = try await reading { try await store.loadNotificationCategories() }
        let category = categories.first { $0.identifier == notification.request.content.categoryIdentifier }
        guard let actionIdentifier = try NotificationResponse.actionIdentifier(for: action, text: text, in: category,
                                                                              responding: identifier,
                                                                              categoryName: notification.request.content.categoryIdentifier)
        else { return nil }
        return NotificationResponse(notification: notification, actionIdentifier: actionIdentifier, userText: text, date: date)
    }
}
#endif

import Foundation
import GRDB
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// Schema version 3: shared triggers written once in `triggers`, the version 2
/// migration, pruning, and a restart that streams rows into the dispatcher.
@Suite("NotificationStore shared triggers")
struct SharedTriggerTableTests {
    static let start = NotificationStoreTests.start

    static func withTemporaryPath(_ body: (String) async throws -> Void) async rethrows {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await body(path)
    }

    static func triggerRowCount(_ store: NotificationStore) throws -> Int {
        try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM triggers") ?? -1 }
    }

    /// The triggers the store shares, counted independently of its keys: equal trigger values.
    static func distinctSharedTriggers(_ records: [ScheduledRequest]) -> Int {
        Set(records.compactMap { record -> NotificationTrigger? in
            switch record.request.trigger {
            case .calendar?, .location?, .recurrence?: return record.request.trigger
            default: return nil
            }
        }).count
    }

    @Test func eachDistinctSharedTriggerIsWrittenOnceAndPrunedWhenUnused() async throws {
        try await Self.withTemporaryPath { path in
            var random = SplitMix64(seed: 21)
            let records = try (0..<900).map { try NotificationStoreTests.randomRecord($0, using: &random) }
            let store = try NotificationStore(path: path)
            // Saved in three transactions: a trigger written by an earlier one is found, not written again.
            try store.savePending(records[0..<300])
            try store.savePending(records[300..<600])
            try store.savePending(records[600...])
            let distinct = Self.distinctSharedTriggers(records)
            #expect(distinct > 50 && distinct < 600)
            #expect(try Self.triggerRowCount(store) == distinct)
            #expect(try store.loadPending().map(\.request) == records.map(\.request))

            // Remove two thirds: the next load prunes the triggers no row refers to.
            let kept = records.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            try store.removePending(identifiers: records.enumerated().filter { $0.offset % 3 != 0 }.map(\.element.request.identifier))
            #expect(try Self.triggerRowCount(store) == distinct)
            #expect(try store.loadPending().map(\.request) == kept.map(\.request))
            #expect(try Self.triggerRowCount(store) == Self.distinctSharedTriggers(kept))
            #expect(Self.distinctSharedTriggers(kept) < distinct)
            // Saving again after the prune reuses or rewrites rows as needed.
            try store.savePending(records[1..<40])
            #expect(try Self.triggerRowCount(store) == Self.distinctSharedTriggers(kept + records[1..<40]))
            try store.removeAllPending()
            #expect(try Self.triggerRowCount(store) == 0)
        }
    }

    /// A location trigger's columns hold JSON, which is part of its key: equal
    /// triggers must encode to one key every time, or the table holds duplicates.
    @Test func locationTriggerKeyIsTheSameOnEveryEncoding() throws {
        let trigger = NotificationTrigger.location(LocationTrigger(
            region: try .circle(center: Coordinate(latitude: 45.8, longitude: 14.3), radius: 250),
            notifyOnEntry: true, notifyOnExit: false, repeats: true))
        let keys = Set(try (0..<64).map { _ in try TriggerColumns(trigger).key })
        #expect(keys.count == 1, "\(keys)")
        #expect(keys.first?.contains(#"{"circle":[45.8,14.3,250],"entry":true,"exit":false}"#) == true, "\(keys)")
    }

    @Test func versionTwoStoreIsMigratedWithSharedTriggers() async throws {
        try await Self.withTemporaryPath { path in
            let fixture = Bundle.module.url(forResource: "version2.sqlite", withExtension: nil, subdirectory: "Fixtures/store")!
            try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
            let store = try NotificationStore(path: path)
            let records = try store.loadPending()
            #expect(records.map(\.request.identifier) == ["daily", "water", "standup", "lunch", "home", "daily2", "now"])
            #expect(records.map(\.recipient) == ["alice", "bob", "alice", "", "alice", "bob", ""])
            #expect(records.map { $0.nextFire?.timeIntervalSince1970 }
                    == [1_767_254_400, 1_767_226_500, 1_767_254_400, 1_767_268_800, nil, 1_767_254_400, nil])
            let berlin = try ZoneRules.named("Europe/Berlin")
            let nineInBerlin = NotificationTrigger.calendar(try CalendarTrigger(
                dateMatching: DateComponents(hour: 9, minute: 0), repeats: true, timeZone: .fixed(berlin)))
            #expect(records[0].request.trigger == nineInBerlin)
            #expect(records[5].request.trigger == nineInBerlin)
            #expect(records[1].request.trigger == .timeInterval(try TimeIntervalTrigger(timeInterval: 900, repeats: false)))
            #expect(records[3].request.trigger == .calendar(try CalendarTrigger(
                dateMatching: DateComponents(hour: 12, minute: 0), repeats: true, timeZone: .floating)))
            guard case .location(let home)? = records[4].request.trigger, case .recurrence(let standup)? = records[2].request.trigger else {
                Issue.record("home or standup lost its trigger kind")
                return
            }
            #expect(home.notifyOnEntry && !home.notifyOnExit && home.repeats)
            #expect(home.region.circle?.radius == 200)
            #expect(RecurrenceTriggerSource(standup) == RecurrenceTriggerSource(
                rrule: "FREQ=DAILY;COUNT=4", dtstart: "2026-01-01T09:00:00", tz: "Europe/Berlin",
                exdates: ["2026-01-02T09:00:00"]))
            #expect(records[0].request.content.userInfo == ["room": .string("B2")])
            #expect(records[1].request.misfirePolicy == .skipToNext && records[3].request.misfirePolicy == .fireAll)
            #expect(records[3].request.content.sound == .named("chime.caf") && records[3].request.content.body == "Eat")
            #expect(records[3].request.content.categoryIdentifier == "MEAL" && records[3].request.content.threadIdentifier == "food")
            #expect(records[6].request.trigger == nil)
            // daily and daily2 share one row: four distinct shared triggers.
            #expect(try Self.triggerRowCount(store) == 4)
            #expect(try store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == NotificationStore.schemaVersion)
            // The migrated rows read the same as the same records written by this version.
            let fresh = try NotificationStore(path: nil)
            try fresh.savePending(records)
            #expect(try fresh.loadPending().map(\.request) == records.map(\.request))
        }
    }

    @Test func rowReferringToAMissingTriggerIsSetAsideNamingTheRequestAndTheRestOpens() async throws {
        try await Self.withTemporaryPath { path in
            let store = try NotificationStore(path: path)
            let trigger = NotificationTrigger.calendar(try CalendarTrigger(dateMatching: DateComponents(hour: 7), repeats: true))
            let other = NotificationRequest(identifier: "other", content: NotificationContent(),
                                            trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: true)))
            try store.savePending([.init(request: NotificationRequest(identifier: "wake", content: NotificationContent(), trigger: trigger),
                                         nextFire: nil),
                                   .init(request: other, nextFire: Self.start.addingTimeInterval(60))])
            // The schema declares the reference, so the corruption needs foreign keys off
            // (a pragma that only takes effect outside a transaction).
            try await store.database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF; UPDATE pending SET trigger = 99 WHERE identifier = 'wake'; PRAGMA foreign_keys = ON")
            }
            // The bad row is set aside (kept, with its error); the good one loads.
            #expect(try store.loadPending().map(\.request.identifier) == ["other"])
            let setAside = try store.loadSetAside()
            #expect(setAside.map(\.key) == ["wake"] && setAside.map(\.table) == ["pending"])
            #expect(setAside.first?.error.contains("stored request 'wake'") == true, "\(setAside)")
            #expect(setAside.first?.error.contains("trigger row 99 is not in the store") == true, "\(setAside)")
            #expect(try store.pendingCount() == 1)
            // A center (which decodes on a second thread) opens and reports it.
            let center = try UserNotificationCenter(now: Self.start, store: store)
            #expect(await center.pendingNotificationRequests().map(\.identifier) == ["other"])
            #expect(center.setAsideRecords.map(\.key) == ["wake"])
            // The row is still in the file, untouched but for its mark.
            #expect(try await store.database.read { db in try Int.fetchOne(db, sql: "SELECT trigger FROM pending WHERE identifier = 'wake'") } == 99)
        }
    }

    /// A center restarted from a store (rows streamed into the dispatcher, shared
    /// triggers compiled once) fires exactly as a dispatcher given the same
    /// records one `add` at a time.
    @Test func restartedCenterFiresAsOneByOneAddsOfTheStoredRecords() async throws {
        try await Self.withTemporaryPath { path in
            var random = SplitMix64(seed: 8)
            // More rows than one read-ahead batch (2,048), so batches change hands.
            var records = try (0..<2_500).map { try NotificationStoreTests.randomRecord($0, using: &random) }
            for index in records.indices { records[index].recipient = "" }
            let store = try NotificationStore(path: path)
            try store.savePending(records)
            try store.saveSettings(NotificationSettings(authorizationStatus: .authorized, options: [.alert]), for: "")
            let now = Self.start.addingTimeInterval(3 * 86_400)
            let zone = try ZoneRules.named("Europe/Berlin")
            let center = try UserNotificationCenter(now: now, floatingZone: zone, store: try NotificationStore(path: path))
            let oneByOne = Dispatcher(now: now, floatingZone: zone)
            for record in try store.loadPending() { oneByOne.add(record.request, nextFire: record.nextFire) }
            #expect(await center.pendingNotificationRequests() == oneByOne.pendingRequests)
            #expect(oneByOne.pendingCount > 2_048)
            let end = now.addingTimeInterval(5 * 86_400)
            let fired = try await center.advance(to: end).map { "\($0.notification.request.identifier)@\($0.notification.date.timeIntervalSince1970)" }
            var expected: [String] = []
            oneByOne.advance(to: end) { expected.append("\($0.request.identifier)@\($0.date.timeIntervalSince1970)") }
            #expect(expected.count > 500)
            #expect(fired == expected)
        }
    }
}

import Foundation
import GRDB
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("NotificationStore")
struct NotificationStoreTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func temporaryPath() -> String {
        ScratchFolder.path("store-\(UUID()).sqlite").path
    }

    /// Another connection takes the file's exclusive lock, on a thread of its
    /// own, and keeps it until `released`; returns once the lock is held.
    static func holdExclusiveLock(on path: String, until released: Date) throws {
        let holder = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                Thread.sleep(until: released)
                try db.execute(sql: "COMMIT")
            }
        }
        locked.wait()
    }

    /// A store opened while another connection holds the file's lock (a store
    /// still closing, another process) waits for it instead of failing with
    /// "database is locked".
    @Test func openingWaitsForAnotherConnectionsLock() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try NotificationStore(path: path).savePending([.init(request: NotificationRequest(identifier: "kept", content: NotificationContent(),
                                                                                           trigger: nil), nextFire: nil)])
        let released = Date().addingTimeInterval(0.3)
        try Self.holdExclusiveLock(on: path, until: released)
        let store = try NotificationStore(path: path)
        #expect(Date() >= released)
        #expect(try store.loadPending().map(\.request.identifier) == ["kept"])
    }

    @Test func centerRestartKeepsPendingCategoriesDeliveredAndSettings() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
            try await center.requestAuthorization(options: [.alert])
            try await center.setNotificationCategories([NotificationCategory(identifier: "C", actions: [])])
            try await center.add(NotificationRequest(identifier: "once", content: NotificationContent(title: "1"),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: false))))
            try await center.add(NotificationRequest(identifier: "hourly", content: NotificationContent(title: "h"),
                                                     trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(minute: 30), repeats: true)),
                                                     misfirePolicy: .skipToNext))
            try await center.add(NotificationRequest(identifier: "later", content: NotificationContent(title: "l"),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 86_400, repeats: false))))
            let fired = try await center.advance(to: Self.start.addingTimeInterval(3_600))
            #expect(fired.map(\.notification.request.identifier) == ["once", "hourly"])
        }
        // Restart three hours later: "hourly" skips its missed 01:30 and 02:30 fires.
        let center = try UserNotificationCenter(now: Self.start.addingTimeInterval(3 * 3_600 + 60),
                                                store: try NotificationStore(path: path))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["hourly", "later"])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["once", "hourly"])
        #expect(await center.notificationCategories().map(\.identifier) == ["C"])
        #expect(await center.notificationSettings().authorizationStatus == .authorized)
        let next = try await center.advance(to: Self.start.addingTimeInterval(4 * 3_600))
        #expect(next.map(\.notification.date) == [Self.start.addingTimeInterval(3 * 3_600 + 1_800)])
    }

    @Test func savedRecordsReloadInAddOrderWithTheirNextFires() throws {
        let store = try NotificationStore(path: nil)
        var random = SplitMix64(seed: 11)
        var records: [ScheduledRequest] = []
        for index in 0..<500 {
            let request = NotificationRequest(identifier: "r\(random.next() % 100_000)-\(index)",
                                              content: NotificationContent(title: "t\(index)", userInfo: ["i": .number(Double(index))]),
                                              trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 + index), repeats: index % 2 == 0)))
            records.append(.init(request: request, recipient: "u\(index % 7)",
                                 nextFire: Self.start.addingTimeInterval(Double(random.next() % 1_000_000))))
        }
        try store.savePending(records)
        try store.savePending([records[3]]) // replacing moves it to the end
        let expected = records.enumerated().filter { $0.offset != 3 }.map(\.element) + [records[3]]
        let loaded = try store.loadPending()
        #expect(loaded.map(\.request) == expected.map(\.request))
        #expect(loaded.map(\.recipient) == expected.map(\.recipient))
        #expect(loaded.map(\.nextFire) == expected.map(\.nextFire))
    }

    /// A random request of every trigger kind and content shape the columns hold.
    static func randomRecord(_ index: Int, using random: inout SplitMix64) throws -> ScheduledRequest {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let trigger: NotificationTrigger?
        switch random.next() % 6 {
        case 0:
            var components = DateComponents()
            components.hour = pick([nil, 0, 9, 23])
            components.minute = Int(random.next() % 60)
            components.weekday = pick([nil, 1, 7])
            components.day = pick([nil, 1, 31])
            components.month = pick([nil, 2, 12])
            components.weekOfYear = pick([nil, 53])
            trigger = .calendar(try CalendarTrigger(dateMatching: components, repeats: random.next() % 2 == 0,
                                                    timeZone: pick([.floating, .fixed(try ZoneRules.named("Europe/Berlin")),
                                                                    .fixed(try ZoneRules.named("America/St_Johns"))])))
        case 1:
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: 60 + Double(random.next() % 1_000_000) / 8,
                                                            repeats: random.next() % 2 == 0))
        case 2:
            let lat = 45.75 + Double(random.next() % 1000) / 7919, lon = 14.36 - Double(random.next() % 1000) / 6007
            let region: Region
            if random.next() % 2 == 0 {
                region = try .circle(center: Coordinate(latitude: lat, longitude: lon), radius: Double(50 + random.next() % 2_000))
            } else {
                // A square with a square hole placed at random inside it.
                let shift = Double(random.next() % 100) / 1e5
                let square: [(Double, Double)] = [(0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01), (0, 0)]
                let shell = square.map { Coordinate(latitude: lat + $0.1, longitude: lon + $0.0) }
                let hole = square.map { Coordinate(latitude: lat + 0.004 + $0.1 / 5, longitude: lon + 0.004 + shift + $0.0 / 5) }
                region = try .polygon(exterior: shell, holes: [hole])
            }
            var options: MonitorOptions?
            if random.next() % 2 == 0 {
                options = MonitorOptions(initial: pick([.none, .enter]), hysteresis: pick([0, 25]), dwell: pick([nil, 90]),
                                         cross: pick([false, true]), maxAccuracy: pick([nil, 150]))
            }
            trigger = .location(LocationTrigger(
                region: region, notifyOnEntry: random.next() % 2 == 0, notifyOnExit: random.next() % 2 == 0,
                repeats: random.next() % 2 == 0, monitorOptions: options))
        case 3:
            let source = RecurrenceTriggerSource(
                rrule: pick(["FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=9", nil]),
                dtstart: pick(["2026-01-01T09:30:00", "2026-03-29T02:30:00", "2026-01-01T08:00:00Z"]),
                tz: pick([nil, "Europe/Berlin"]),
                exdates: pick([[], ["2026-01-05T09:30:00"], ["2026-01-08T09:30:00", "2026-01-12T09:30:00"]]),
                rdates: pick([["2026-02-14T09:30:00"], ["2026-02-14T09:30:00", "2026-04-01T12:00:00"]]))
            trigger = .recurrence(try source.trigger())
        case 4:
            trigger = .push
        default:
            trigger = nil
        }
        var userInfo: [String: UserInfoValue] = [:]
        if random.next() % 2 == 0 {
            userInfo = ["n": .number(Double(random.next() % 1_000) / 3), "s": .string("ü \(index)"),
                        "a": .array([.bool(true), .null, .object(["k": .string("v")])])]
        }
        let content = NotificationContent(
            title: "Title \(index)", subtitle: pick(["", "sub"]), body: pick(["", "Body with ; and = and ,"]),
            badge: pick([nil, 0, 42]), sound: pick([nil, .default, .named("chime.caf")]), userInfo: userInfo,
            categoryIdentifier: pick(["", "MEETING"]), threadIdentifier: pick(["", "thread-\(index % 5)"]))
        let request = NotificationRequest(
            identifier: "req-\(index)-\(random.next() % 1_000)", content: content, trigger: trigger,
            misfirePolicy: pick(MisfirePolicy.allCases),
            added: random.next() % 4 == 0 ? nil : start.addingTimeInterval(Double(random.next() % 10_000_000) / 4))
        return .init(request: request, recipient: pick(["", "alice", "bob"]),
                     nextFire: random.next() % 5 == 0 ? nil : start.addingTimeInterval(Double(random.next() % 100_000_000) / 16))
    }

    @Test func columnLayoutRoundTripsEveryFieldOfSeededRandomRequests() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var random = SplitMix64(seed: 6)
        let records = try (0..<600).map { try Self.randomRecord($0, using: &random) }
        try NotificationStore(path: path).savePending(records)
        let loaded = try NotificationStore(path: path).loadPending()
        #expect(loaded.count == records.count)
        for (stored, original) in zip(loaded, records) {
            let (a, b) = (stored.request, original.request)
            #expect(a.identifier == b.identifier)
            #expect(stored.recipient == original.recipient, "\(b.identifier)")
            #expect(stored.nextFire == original.nextFire, "\(b.identifier)")
            #expect(a.added == b.added, "\(b.identifier)")
            #expect(a.misfirePolicy == b.misfirePolicy, "\(b.identifier)")
            #expect(a.trigger == b.trigger, "\(b.identifier): \(String(describing: a.trigger)) vs \(String(describing: b.trigger))")
            #expect(a.trigger?.kind == b.trigger?.kind && a.trigger?.repeats == b.trigger?.repeats, "\(b.identifier)")
            #expect(a.content.title == b.content.title && a.content.subtitle == b.content.subtitle
                    && a.content.body == b.content.body, "\(b.identifier)")
            #expect(a.content.badge == b.content.badge && a.content.sound == b.content.sound, "\(b.identifier)")
            #expect(a.content.userInfo == b.content.userInfo, "\(b.identifier)")
            #expect(a.content.categoryIdentifier == b.content.categoryIdentifier
                    && a.content.threadIdentifier == b.content.threadIdentifier, "\(b.identifier)")
            #expect(a == b)
        }
        // The triggers still compute the same fires after the round trip.
        let zone = try ZoneRules.named("Asia/Tokyo")
        for (stored, original) in zip(loaded, records) {
            guard let after = original.nextFire, let added = original.request.added else { continue }
            #expect(stored.request.trigger?.nextTriggerDate(after: after, addedAt: added, in: zone)
                    == original.request.trigger?.nextTriggerDate(after: after, addedAt: added, in: zone))
        }
    }

    @Test func versionOneStoreWithJSONRowsIsMigratedToColumns() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let fixture = Bundle.module.url(forResource: "version1.sqlite", withExtension: nil, subdirectory: "Fixtures/store")!
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        let records = try NotificationStore(path: path).loadPending()
        #expect(records.map(\.request.identifier) == ["daily", "water", "standup"])
        #expect(records.map(\.recipient) == ["alice", "bob", "alice"])
        #expect(records.map { $0.nextFire?.timeIntervalSince1970 } == [1_767_254_400, 1_767_226_500, 1_767_254_400])
        #expect(records[0].request.content.userInfo == ["room": .string("B2")])
        #expect(records[1].request.misfirePolicy == .skipToNext)
        #expect(records[1].request.content.sound == .default)
        #expect(records[2].request.content.badge == 3)
        guard case .recurrence(let standup)? = records[2].request.trigger else {
            Issue.record("standup is not a recurrence")
            return
        }
        #expect(RecurrenceTriggerSource(standup).exdates == ["2026-01-02T09:00:00"])
        // Opened again (now the current version) it reads the same; a center fires from it.
        let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["daily", "water", "standup"])
        let fired = try await center.advance(to: Self.start.addingTimeInterval(3 * 86_400))
        // 2026-01-01T00:15Z water (bob not authorized: counted, not delivered); alice's 09:00 Berlin = 08:00Z
        // daily on the 1st, 2nd, 3rd; standup on the 1st and 3rd (the 2nd is an EXDATE).
        #expect(fired.map { "\($0.notification.request.identifier)@\(Int($0.notification.date.timeIntervalSince1970))" }
                == ["daily@1767254400", "standup@1767254400", "daily@1767340800",
                    "daily@1767427200", "standup@1767427200"])
        #expect(await center.deniedCount == 1)
    }

    @Test func storeOfANewerSchemaVersionIsRefusedNotMisread() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let fixture = Bundle.module.url(forResource: "version6.sqlite", withExtension: nil, subdirectory: "Fixtures/store")!
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        let error = #expect(throws: InputFileError.self) { try NotificationStore(path: path) }
        #expect(error?.path == path)
        #expect(error?.reason.contains("schema version 6; this build reads versions up to 5") == true, "\(String(describing: error))")
    }

    @Test func deviceTokensSurviveARestartAfterRegisterUpdateAndUnregister() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
            try await center.registerDeviceToken("AABBCCDD", for: "alice")
            try await center.registerDeviceToken("0123456789abcdef0123456789abcdef0123456789abcdef0123456789ABCDEF", for: "alice")
            try await center.registerDeviceToken("ffee", for: "bob")
            try await center.registerDeviceToken("ffee00", for: "bob", replacing: "FFEE")
            try await center.registerDeviceToken("1234", for: "carol")
            try await center.unregisterDeviceToken(for: "carol")
            try await center.registerDeviceToken("5678", for: "dave")
            try await center.registerDeviceToken("9abc", for: "dave")
            try await center.unregisterDeviceToken("5678", for: "dave")
            await #expect(throws: DataError.self) { try await center.registerDeviceToken("abc", for: "erin") }
        }
        let center = try UserNotificationCenter(now: Self.start, store: try NotificationStore(path: path))
        #expect(await center.deviceTokens.tokens == [
            "alice": ["aabbccdd", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"],
            "bob": ["ffee00"],
            "dave": ["9abc"],
        ])
    }
}

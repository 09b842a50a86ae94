import Foundation
import GRDB
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The store's own JSON (`StoredRequest`, `StoredCategory`, `StoredEventFire`,
/// `StoredLocation`) and the migration of version 4 files to it.
@Suite("Stored forms")
struct StoredFormsTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func categories() -> [NotificationCategory] {
        [
            NotificationCategory(identifier: "MEETING", actions: [
                NotificationAction(identifier: "ACCEPT", title: "Accept", options: .foreground),
                NotificationAction(identifier: "REPLY", title: "Reply", options: [.authenticationRequired, .destructive],
                                   textInput: .init(buttonTitle: "Send", placeholder: "Message")),
            ], intentIdentifiers: ["INStartCallIntent"], hiddenPreviewsBodyPlaceholder: "%u meetings",
               options: [.customDismissAction, .hiddenPreviewsShowTitle]),
            NotificationCategory(identifier: "EMPTY", actions: []),
            NotificationCategory(identifier: "TEXT", actions: [
                NotificationAction(identifier: "NOTE", title: "", textInput: .init(buttonTitle: "", placeholder: "")),
            ], options: .allowInCarPlay),
        ]
    }

    @Test func seededRandomRequestsCategoriesAndFiresRoundTrip() throws {
        var random = SplitMix64(seed: 17)
        for index in 0..<600 {
            let record = try NotificationStoreTests.randomRecord(index, using: &random)
            let request = record.request
            let stored = try StoreJSON.decode(StoredRequest.self, from: try StoreJSON.encode(StoredRequest(request)))
            #expect(try stored.request() == request, "\(request.identifier)")
            let event = RegionEvent(device: "phone-\(index)", region: request.identifier,
                                    kind: RegionEvent.Kind.allCases[index % 4], time: Self.start.addingTimeInterval(Double(index)),
                                    coordinate: Coordinate(latitude: 45.8, longitude: 14.3 + Double(index) / 1e4))
            let fire = EventFire(id: .regionEvent(event, identifier: request.identifier), request: request,
                                 recipient: record.recipient, due: event.time, regionEvent: index % 3 == 0 ? nil : event)
            let back = try StoreJSON.decode(StoredEventFire.self, from: try StoreJSON.encode(StoredEventFire(fire))).fire()
            #expect(back == fire, "\(request.identifier)")
        }
        for category in Self.categories() {
            #expect(try StoreJSON.decode(StoredCategory.self, from: try StoreJSON.encode(StoredCategory(category))).category
                    == category)
        }
    }

    /// The stored form is the database's format: a change to it needs a new
    /// schema version and a migration, so the form of one full request is pinned.
    @Test func theStoredFormOfARequestIsPinned() throws {
        let request = NotificationRequest(
            identifier: "standup",
            content: NotificationContent(title: "Stand-up", body: "Room 4", badge: 2, sound: .default,
                                         userInfo: ["room": .string("B2"), "floor": .number(4)],
                                         categoryIdentifier: "MEETING", threadIdentifier: "team"),
            trigger: .calendar(try CalendarTrigger(dateMatching: DateComponents(hour: 9, minute: 30), repeats: true,
                                                   timeZone: .fixed(try ZoneRules.named("Europe/Berlin")))),
            misfirePolicy: .skipToNext, added: Self.start)
        let json = try JSONSerialization.jsonObject(with: try StoreJSON.encode(StoredRequest(request))) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data("""
            {"id":"standup","title":"Stand-up","body":"Room 4","badge":2,"sound":"default","category":"MEETING",
             "thread":"team","userInfo":{"room":"B2","floor":4},"misfire":1,"added":1767225600,
             "trigger":{"kind":1,"repeats":true,"zone":"Europe/Berlin","parameters":"hour=9;minute=30"}}
            """.utf8)) as? NSDictionary
        #expect(json == expected, "\(String(describing: json))")
    }

    @Test func storedLocationRefusesWhatIsNotARegion() throws {
        for text in [#"{"entry":true,"exit":true}"#, #"{"circle":[1,2],"entry":true,"exit":true}"#,
                     #"{"circle":[91,2,50],"entry":true,"exit":true}"#,
                     #"{"rings":[[[[0,0],[1,0,3]]]],"entry":true,"exit":true}"#,
                     #"{"rings":[[[[0,0],[1,0],[0,0]]]],"entry":true,"exit":true}"#] {
            #expect(throws: (any Error).self, "\(text)") { try StoredLocation(text: text).trigger(repeats: false) }
        }
    }

    static func withFixture(_ name: String, _ body: (String) async throws -> Void) async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let fixture = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/store")!
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: path))
        try await body(path)
    }

    /// `version4.sqlite` (written by `make-version4.py` with literal JSON of
    /// that version): every value comes back, in the store's form afterwards.
    @Test func versionFourStoreIsMigratedToTheStoredForms() async throws {
        try await Self.withFixture("version4.sqlite") { path in
            let store = try NotificationStore(path: path)
            #expect(try await store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 5)
            try Self.expectVersionFourContents(pending: try store.loadPending(), delivered: try store.loadDelivered(),
                                               categories: try store.loadCategories(), fires: try store.loadEventFires())
            try await store.database.read { db in
                // The two spellings of one location trigger became one row.
                let homes = try Int64.fetchAll(db, sql: "SELECT trigger FROM pending WHERE identifier IN ('home', 'home-again')")
                #expect(homes.count == 2 && homes[0] == homes[1])
                // What did not decode is set aside with its reason, not dropped.
                let lost = try String.fetchOne(db, sql: "SELECT set_aside FROM pending WHERE identifier = 'lost'")
                #expect(lost?.contains("does not migrate to schema version 5") == true, "\(lost ?? "nil")")
                let garbage = try String.fetchOne(db, sql: "SELECT set_aside FROM delivered WHERE identifier = 'garbage'")
                #expect(garbage?.contains("does not migrate") == true, "\(garbage ?? "nil")")
                // Every JSON value left is in the stored form.
                for json in try Data.fetchAll(db, sql: "SELECT json FROM delivered WHERE set_aside IS NULL") {
                    _ = try StoreJSON.decode(StoredRequest.self, from: json)
                }
                for text in try String.fetchAll(db, sql: "SELECT parameters FROM triggers WHERE kind = 3 AND id IN (SELECT trigger FROM pending WHERE set_aside IS NULL)") {
                    _ = try StoredLocation(text: text)
                }
            }
            try store.close()
            // Opened again it is read as it is, and a center starts from it.
            let again = try NotificationStore(path: path)
            try Self.expectVersionFourContents(pending: try again.loadPending(), delivered: try again.loadDelivered(),
                                               categories: try again.loadCategories(), fires: try again.loadEventFires())
            let center = try UserNotificationCenter(now: Self.start, store: again)
            #expect(await center.pendingNotificationRequests().map(\.identifier) == ["home", "home-again", "park", "coffee"])
            #expect(await center.deliveredNotifications().map(\.request.identifier) == ["standup", "water"])
        }
    }

    /// What `version4.sqlite` holds (written out here, not computed), read
    /// back from either store after its migration.
    static func expectVersionFourContents(pending: [ScheduledRequest], delivered: [DeliveredNotification],
                                          categories: [NotificationCategory], fires: [EventFire]) throws {
        #expect(pending.map(\.request.identifier) == ["home", "home-again", "park", "coffee"])
        #expect(pending.map(\.recipient) == ["alice", "bob", "alice", ""])
        let home = LocationTrigger(region: try .circle(center: Coordinate(latitude: 48.8566, longitude: 2.3522), radius: 200),
                                   notifyOnEntry: true, notifyOnExit: false, repeats: true)
        if pending.count == 4 {
            #expect(pending[0].request.trigger == .location(home))
            #expect(pending[1].request.trigger == .location(home))
            guard case .location(let park)? = pending[2].request.trigger else {
                Issue.record("park is not a location request")
                return
            }
            #expect(park.region.rings.count == 2 && !park.repeats && park.notifyOnEntry && park.notifyOnExit)
            #expect(park.region.rings[1].first == Coordinate(latitude: 48.854, longitude: 2.294))
            #expect(park.monitorOptions == MonitorOptions(initial: .enter, hysteresis: 25, dwell: 120))
            #expect(pending[2].request.content.userInfo == ["gate": .string("north")])
            #expect(pending[2].request.misfirePolicy == .skipToNext && pending[3].request.misfirePolicy == .fireAll)
            #expect(pending[3].request.trigger == .calendar(try CalendarTrigger(
                dateMatching: DateComponents(hour: 9, minute: 0), repeats: true, timeZone: .fixed(try ZoneRules.named("Europe/Paris")))))
            #expect(pending[3].nextFire == Date(timeIntervalSince1970: 1_767_254_400))
        }
        #expect(delivered.map(\.request.identifier) == ["standup", "water"])
        if delivered.count == 2 {
            let standup = delivered[0].request
            #expect(delivered[0].recipient == "alice" && delivered[0].date == Date(timeIntervalSince1970: 1_767_256_200))
            #expect(standup.content == NotificationContent(
                title: "Stand-up", body: "Room 4", badge: 2, sound: .default,
                userInfo: ["room": .string("B2"), "floor": .number(4), "remote": .bool(false),
                           "tags": .array([.string("daily"), .null])],
                categoryIdentifier: "MEETING", threadIdentifier: "team"))
            #expect(standup.trigger == .calendar(try CalendarTrigger(
                dateMatching: DateComponents(hour: 9, minute: 30), repeats: true, timeZone: .fixed(try ZoneRules.named("Europe/Berlin")))))
            #expect(standup.misfirePolicy == .skipToNext && standup.added == start)
            #expect(delivered[1].request.content.sound == .named("drop.caf"))
            #expect(delivered[1].request.trigger == .timeInterval(try TimeIntervalTrigger(timeInterval: 900, repeats: false)))
        }
        #expect(categories == [Self.categories()[0]])
        #expect(fires.map(\.id.rawValue) == ["1767229200000~enter~phone-1~home", "1767229300000~push~ping"])
        if fires.count == 2 {
            #expect(fires[0].request.trigger == .location(home) && fires[0].recipient == "alice")
            #expect(fires[0].regionEvent == RegionEvent(device: "phone-1", region: "home", kind: .enter,
                                                        time: Date(timeIntervalSince1970: 1_767_229_200),
                                                        coordinate: Coordinate(latitude: 48.8567, longitude: 2.3523)))
            #expect(fires[1].request.trigger == .push && fires[1].regionEvent == nil && fires[1].request.content.body == "Ping")
        }
    }
}

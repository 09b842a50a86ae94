import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

@Suite("UserNotificationCenter location")
struct CenterLocationTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z
    static let lake = Coordinate(latitude: 45.0, longitude: 14.0)

    static func fix(_ seconds: Double, _ latitude: Double, device: String = "d") -> LocationFix {
        LocationFix(device: device, time: start.addingTimeInterval(seconds),
                    coordinate: Coordinate(latitude: latitude, longitude: 14.0))
    }

    static func locationRequest(_ id: String, radius: Double = 100, repeats: Bool = true,
                                options: MonitorOptions? = nil) throws -> NotificationRequest {
        NotificationRequest(identifier: id, content: NotificationContent(title: id),
                            trigger: .location(LocationTrigger(region: try Region.circle(center: lake, radius: radius),
                                                               repeats: repeats, monitorOptions: options)))
    }

    @Test func aLocationDeliveryCarriesItsEventDeviceAndRegion() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        try await center.add(Self.locationRequest("lake"))
        var deliveries: [Delivery] = []
        for (second, latitude) in [(60.0, 45.002), (120, 45.0), (180, 45.002)] {
            deliveries += try await center.ingest(Self.fix(second, latitude, device: "phone-1"))
        }
        #expect(deliveries.map { $0.regionEvent?.kind } == [.enter, .exit])
        #expect(deliveries.allSatisfy { $0.regionEvent?.device == "phone-1" && $0.regionEvent?.region == "lake" })
        #expect(deliveries.map(\.notification.date) == [Self.start.addingTimeInterval(120), Self.start.addingTimeInterval(180)])
        #expect(deliveries.map(\.triggerKind) == [.location, .location])
        // Two fires of one request, told apart by their IDs.
        #expect(Set(deliveries.map(\.id)).count == 2)
    }

    @Test func fixesOutOfOrderOrFarFromTheClockAreRefusedWithTheirReason() async throws {
        let clock = ManualClock(now: Self.start)
        let center = try UserNotificationCenter(clock: clock)
        try await center.setLocationPolicy(LocationPolicy(maximumAge: .seconds(300), maximumLead: .seconds(60)))
        try await center.ingest(Self.fix(0, 45.0))
        func refusal(_ fix: LocationFix) async -> LocationFixRefusal? {
            do {
                try await center.ingest(fix)
                return nil
            } catch CenterError.fixRefused(let refusal) {
                return refusal
            } catch {
                return nil
            }
        }
        #expect(await refusal(Self.fix(0, 45.0)) == .notAfterPrevious(previous: Self.start))
        #expect(await refusal(Self.fix(-10, 45.0)) == .notAfterPrevious(previous: Self.start))
        #expect(await refusal(Self.fix(61, 45.0)) == .inTheFuture(lead: .seconds(61)))
        #expect(await refusal(Self.fix(30, 95.0)) == .invalidValue)
        clock.advance(by: .seconds(1_000))
        #expect(await refusal(Self.fix(600, 45.0)) == .tooOld(age: .seconds(400)))
        #expect(await refusal(Self.fix(800, 45.0)) == nil)
    }

    /// Issue 12: removing any request rebuilt the region monitor on the next fix.
    @Test func anUnrelatedRemovalDoesNotRebuildTheMonitor() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        try await center.add(Self.locationRequest("lake"))
        for index in 0..<50 {
            try await center.add(NotificationRequest(identifier: "timer-\(index)", content: NotificationContent(),
                                                     trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 86_400, repeats: false))))
        }
        try await center.ingest(Self.fix(1, 45.002))
        #expect(await center.locationMonitorBuilds == 1)
        try await center.removePendingNotificationRequests(withIdentifiers: ["timer-7", "timer-8"])
        let entered = try await center.ingest(Self.fix(2, 45.0))
        #expect(await center.locationMonitorBuilds == 1)
        #expect(entered.map { "\($0.notification.request.identifier):\($0.regionEvent!.kind)" } == ["lake:enter"])
        // A location change rebuilds, and the device keeps its state across it:
        // still inside (no second enter), then out (the exit).
        let far = NotificationRequest(identifier: "far", content: NotificationContent(),
                                      trigger: .location(LocationTrigger(region: try Region.circle(
                                          center: Coordinate(latitude: 46, longitude: 15), radius: 50), repeats: true)))
        try await center.add(far)
        let inside = try await center.ingest(Self.fix(3, 45.0005))
        let left = try await center.ingest(Self.fix(4, 45.002))
        #expect(await center.locationMonitorBuilds == 2)
        #expect(inside.isEmpty)
        #expect(left.map { "\($0.notification.request.identifier):\($0.regionEvent!.kind)" } == ["lake:exit"])
    }

    @Test func aRequestsOwnMonitorOptionsGiveItDwellAndInitialEnter() async throws {
        let center = try UserNotificationCenter(now: Self.start)
        try await center.requestAuthorization(options: [.alert])
        try await center.add(Self.locationRequest("plain"))
        try await center.add(Self.locationRequest("dwelling", options: MonitorOptions(initial: .enter, dwell: 120)))
        var events: [String] = []
        for (second, latitude) in [(0.0, 45.0), (60, 45.0001), (130, 45.0002), (200, 45.002)] {
            events += try await center.ingest(Self.fix(second, latitude)).map {
                "\($0.notification.request.identifier):\($0.regionEvent!.kind)@\(Int($0.notification.date.timeIntervalSince(Self.start)))"
            }
        }
        // "plain" (Apple's default): the first fix inside only sets the state; the exit fires.
        // "dwelling": its first fix inside is an enter, a dwell 130 s later, then the exit.
        #expect(events == ["dwelling:enter@0", "dwelling:dwell@130", "plain:exit@200", "dwelling:exit@200"])
    }

    /// An acknowledged fix is never lost: its fires are stored before `ingest`
    /// returns, and a center restarted before they were handed over delivers them.
    @Test func eventFiresOfAnAcknowledgedFixSurviveARestart() async throws {
        let path = NotificationStoreTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = ManualClock(now: Self.start)
        do {
            let center = try UserNotificationCenter(clock: clock, store: try NotificationStore(path: path))
            try await center.requestAuthorization(options: [.alert])
            try await center.add(Self.locationRequest("once", repeats: false))
            // A handler that never takes anything: the run loop keeps the fire.
            await center.setDeliveryHandler { _ in throw DeliveryRecorder.HandOverRefused() }
            let task = Task { try await center.run() }
            #expect(await eventually { await center.isRunning })
            clock.advance(by: .seconds(10))
            try await center.ingest(Self.fix(5, 45.002))
            clock.advance(by: .seconds(10))
            #expect(try await center.ingest(Self.fix(15, 45.0)).isEmpty)
            // The one-shot left the pending requests with its fire.
            #expect(await center.pendingNotificationRequests().isEmpty)
            task.cancel()
            try await task.value
        }
        let restarted = try UserNotificationCenter(clock: clock, store: try NotificationStore(path: path))
        let recorder = DeliveryRecorder()
        await recorder.attach(to: restarted)
        let task = Task { try await restarted.run() }
        #expect(await eventually { recorder.identifiers == ["once"] })
        #expect(recorder.deliveries.first?.regionEvent?.kind == .enter)
        #expect(recorder.deliveries.first?.due == Self.start.addingTimeInterval(15))
        #expect(await eventually { try! NotificationStore(path: path).loadEventFires().isEmpty })
        task.cancel()
        try await task.value
    }
}

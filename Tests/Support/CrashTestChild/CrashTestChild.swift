import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine
import TestSupport

/// `crash-test-child`: the child process of the kill -9 test
/// (`Tests/TriggerEvalTests/KillRecoveryTests.swift`), a test-support
/// executable that is not shipped. It opens a store-backed center,
/// adds seeded requests from `--add-from` on, then runs the virtual clock over
/// `--days` as fast as it can. Each line it prints is a confirmation written
/// after the store committed: `added <index>` after an add, `delivered
/// <identifier> <epoch>` after a delivery, `done` at the end. The test kills it
/// at random instants and restarts it; the store is the record, the lines only
/// say what certainly was committed before the kill.
///
/// `--dump` prints the store instead: `pending <identifier> <epoch or ->` in add
/// order, then `delivered <identifier> <epoch>` in delivery order.
@main
struct CrashTestChild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-test-child",
        abstract: "Child process of the kill -9 persistence test."
    )

    @Option(help: "The SQLite store.")
    var store: String

    @Option(help: "Requests in the workload.")
    var requests = 300

    @Option(help: "Virtual days to run.")
    var days = 60

    @Option(help: "Seed of the workload.")
    var seed: UInt64 = 1

    @Option(help: "First request index to add (those before were confirmed by an earlier run).")
    var addFrom = 0

    @Flag(help: "Print the store's pending and delivered rows and exit.")
    var dump = false

    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    func run() async throws {
        let notificationStore = try NotificationStore(path: store)
        if dump {
            for record in try notificationStore.loadPending() {
                Self.emit("pending \(record.request.identifier) \(record.nextFire.map { String(Int($0.timeIntervalSince1970)) } ?? "-")")
            }
            for notification in try notificationStore.loadDelivered() {
                Self.emit("delivered \(notification.request.identifier) \(Int(notification.date.timeIntervalSince1970))")
            }
            return
        }
        // The clock resumes at the last committed delivery: every fire before it
        // was delivered first (time order), so nothing is missed on restart.
        let resume = try notificationStore.lastDeliveryDate() ?? Self.start
        let center = try UserNotificationCenter(now: resume, floatingZone: .utc, store: notificationStore)
        try await center.requestAuthorization(options: [.alert, .sound])
        var random = SplitMix64(seed: seed)
        let workload = try (0..<requests).map { try Self.request($0, days: days, using: &random) }
        for index in addFrom..<requests {
            try await center.add(workload[index])
            Self.emit("added \(index)")
        }
        let end = Self.start.addingTimeInterval(Double(days) * 86_400)
        var now = await center.now
        while now < end {
            now = min(end, now.addingTimeInterval(3_600))
            for delivery in try await center.advance(to: now) {
                let notification = delivery.notification
                Self.emit("delivered \(notification.request.identifier) \(Int(notification.date.timeIntervalSince1970))")
            }
        }
        Self.emit("done")
    }

    /// One line on stdout, flushed at once so a kill loses no confirmation it printed.
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Request `index`: one-shot ones are named `once-…`, repeating ones `repeat-…`.
    static func request(_ index: Int, days: Int, using random: inout SplitMix64) throws -> NotificationRequest {
        let span = UInt64(days * 86_400)
        let trigger: NotificationTrigger?
        switch random.next() % 8 {
        case 0, 1:
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 + random.next() % span), repeats: false))
        case 2, 3:
            let fire = start.addingTimeInterval(Double(60 + random.next() % span))
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let parts = utc.dateComponents([.month, .day, .hour, .minute], from: fire)
            trigger = .calendar(try CalendarTrigger(
                dateMatching: DateComponents(month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute),
                repeats: false))
        case 4:
            trigger = nil
        case 5, 6:
            trigger = .calendar(try CalendarTrigger(
                dateMatching: DateComponents(hour: Int(random.next() % 24), minute: Int(random.next() % 4) * 15),
                repeats: true))
        default:
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: Double(3_600 * (1 + random.next() % 48)),
                                                            repeats: true))
        }
        let name = (trigger?.repeats ?? false) ? "repeat-\(index)" : "once-\(index)"
        return NotificationRequest(identifier: name, content: NotificationContent(title: "Crash test \(index)"),
                                   trigger: trigger)
    }
}

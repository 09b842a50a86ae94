import Foundation
import Testing
import TestSupport
import TriggerEngine

/// README's "Errors" examples, written against the public API only (a plain
/// `import TriggerEngine`): each layer's error is switched on, and each test
/// checks which branch the failure took.
@Suite("README errors example")
struct ErrorsExampleTests {
    enum Branch: Equatable { case file(String), data(String), other }

    /// The reader half of the example, returning the branch it took.
    static func loadCalendar(_ path: String) -> Branch {
        do {
            let calendar = try ICSCalendar.load(path: path)
            print(calendar.warnings.count, "warnings")
            return .other
        } catch .file(let error) {
            return .file(error.path)
        } catch .data(let error) {
            return .data(error.description)   // FILE:LINE: what is wrong
        } catch {
            return .other
        }
    }

    @Test func aMissingCalendarIsAFileErrorAndGarbageADataErrorAtItsLine() throws {
        let missing = "/nonexistent-\(UUID()).ics"
        #expect(Self.loadCalendar(missing) == .file(missing))
        let garbage = ScratchFolder.path("garbage-\(UUID()).ics").path
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        guard case .data(let message) = Self.loadCalendar(garbage) else {
            Issue.record("a file that is not iCalendar was not a data error")
            return
        }
        #expect(message.hasPrefix("\(garbage):1: not an iCalendar file"), "\(message)")
    }

    /// A closure's own error comes back as `.handler`, never taken for the input's.
    @Test func whatTheCallersClosureThrowsComesBackAsHandler() throws {
        struct Stop: Error {}
        do {
            try LocationLog.forEachFix(in: Data("device,time,lat,lon\na,2026-01-01T00:00:00Z,1,2\n".utf8), format: .csv) { _ in
                throw Stop()
            }
            Issue.record("the closure's error was swallowed")
        } catch .handler(let error) {
            #expect(error is Stop)
        } catch {
            Issue.record("expected .handler, got \(error)")
        }
    }

    @Test func aResponseWithAnUnknownActionSaysWhichActionsThereAre() async throws {
        let center = try UserNotificationCenter(now: Date(timeIntervalSince1970: 1_767_225_600))
        try await center.requestAuthorization(options: [.alert])
        try await center.setNotificationCategories([NotificationCategory(identifier: "MEETING", actions: [
            NotificationAction(identifier: "ACCEPT", title: "Accept"),
        ])])
        try await center.add(NotificationRequest(identifier: "standup",
                                                 content: NotificationContent(title: "Stand-up", categoryIdentifier: "MEETING"),
                                                 trigger: nil))
        _ = try await center.advance(to: Date(timeIntervalSince1970: 1_767_225_601))
        var caught: [String] = []
        do {
            try await center.respond(toIdentifier: "standup", action: "SNOOZE", at: await center.now)
        } catch CenterError.actionNotInCategory(_, let action, let category, let actions) {
            caught = [action, category] + actions
        } catch CenterError.store(let failure) where failure.kind == .busy {
            Issue.record("not recorded, try again later: \(failure.message)")
        }
        #expect(caught == ["SNOOZE", "MEETING", "ACCEPT"])
    }
}

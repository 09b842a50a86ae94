import Foundation
import Testing

@Suite("trigger-eval simulate")
struct SimulateCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    /// Expected values worked out by hand from Examples/scenario.json (Ljubljana is +02:00 in August).
    @Test func exampleScenarioTimeline() throws {
        let result = try CLIRunner.run(["simulate", "Examples/scenario.json"], in: Self.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let events = Self.lines(result.stdout)
        let deliveries = events.filter { $0["trigger"] != nil }
        // water: 900 s after from (00:00Z) → 02:15+02:00, once.
        #expect(deliveries.first?["identifier"] as? String == "water")
        #expect(deliveries.first?["time"] as? String == "2010-08-05T02:15:00+02:00")
        // coffee: 07:00 local on the 5th and 6th; stretch every 6 h from 00:00Z: 8 fires through to (inclusive).
        #expect(deliveries.filter { $0["identifier"] as? String == "morning-coffee" }.map { $0["time"] as! String }
                == ["2010-08-05T07:00:00+02:00", "2010-08-06T07:00:00+02:00"])
        #expect(deliveries.filter { $0["identifier"] as? String == "stretch" }.count == 8)
        // standup: 09:00 and 17:00 for two days, COUNT=4, the 6th's 09:00 excluded.
        #expect(deliveries.filter { $0["identifier"] as? String == "standup" }.map { $0["time"] as! String }
                == ["2010-08-05T09:00:00+02:00", "2010-08-05T17:00:00+02:00", "2010-08-06T17:00:00+02:00"])
        #expect(deliveries.contains { $0["trigger"] as? String == "push" && $0["title"] as? String == "Lake level" })
        #expect(deliveries.filter { $0["trigger"] as? String == "location" }.count == 2)
        let reply = events.first { $0["response"] as? String == "REPLY" }
        #expect(reply?["text"] as? String == "On my way")
        #expect(reply?["time"] as? String == "2010-08-05T17:12:00+02:00")
        // Times never go backwards.
        let times = events.map { $0["time"] as! String }
        #expect(times == times.sorted())
        #expect(result.stderr.contains("4 responses"))
    }

    @Test func badRequestIsADataErrorAndLeavesNoOutputFile() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = #"{"from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","requests":[{"identifier":"x","content":{},"trigger":{"timeInterval":{"interval":-5}}}]}"#
        try Data(scenario.utf8).write(to: folder.appendingPathComponent("s.json"))
        let result = try CLIRunner.run(["simulate", "s.json", "-o", "out.ndjson"], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("error: s.json: "))
        #expect(result.stderr.contains("request 'x'"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.ndjson").path))
    }

    @Test func responseToAnUndeliveredRequestIsADataError() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The second response is the bad one: the message names it by index (and by the request it answers).
        let scenario = #"{"from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","requests":[{"identifier":"now"}],"responses":[{"time":"2026-01-01T01:00:00Z","identifier":"now","action":"default"},{"time":"2026-01-01T02:00:00Z","identifier":"ghost","action":"default"}]}"#
        try Data(scenario.utf8).write(to: folder.appendingPathComponent("s.json"))
        let result = try CLIRunner.run(["simulate", "s.json"], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.contains("responses[1]: response to 'ghost', which has not been delivered"), "\(result.stderr)")
    }

    @Test func missingScenarioExits66() throws {
        let result = try CLIRunner.run(["simulate", "/nonexistent/scenario.json"])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("error: /nonexistent/scenario.json"))
    }
}

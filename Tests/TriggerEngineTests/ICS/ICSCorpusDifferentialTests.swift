import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The 116 `.ics` files of a Python iCalendar library's test suite
/// (`Fixtures/ics/icalendar-tests`: real exports and broken files) against
/// recurring-ical-events 3.8.2: the occurrences it lists between 1970 and 2040
/// on the 78 files it reads (recorded in `icalendar-tests-peer.json`, and rerun
/// live when the peer is installed) must be ours on every one that is iCalendar
/// (two have no BEGIN:VCALENDAR, which the contract refuses), each difference
/// named below with why; and no file may be refused unless it is not iCalendar at all.
@Suite struct ICSCorpusDifferentialTests {
    static let folder = Bundle.module.url(forResource: "icalendar-tests", withExtension: nil, subdirectory: "Fixtures/ics")!
    static let recorded = Bundle.module.url(forResource: "icalendar-tests-peer", withExtension: "json", subdirectory: "Fixtures/ics")!
    /// 1970-01-01 and 2040-01-01, UTC.
    static let window = (from: 0, to: 2_208_988_800)

    /// What the peer made of each file: its occurrences as sorted
    /// "uid|start|end" lines, or its error.
    enum Answer: Equatable {
        case occurrences([String])
        case refused(String)
    }

    static func answers(_ data: Data) throws -> (version: String, files: [String: Answer]) {
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var files: [String: Answer] = [:]
        for (name, value) in object["files"] as! [String: [String: Any]] {
            files[name] = (value["occurrences"] as? [String]).map(Answer.occurrences) ?? .refused(value["error"] as? String ?? "?")
        }
        return (object["version"] as? String ?? "?", files)
    }

    static var corpus: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".ics") }.sorted() ?? []
    }

    /// `YYYY-MM-DD` for a date, UTC RFC 3339 with `Z` otherwise: the peer's form.
    static func text(_ time: ICSTime) -> String {
        time.isDate ? ICSCalendarTests.text(time) : RFC3339.string(epochSeconds: time.instant)
    }

    /// Our occurrences of `name` as the peer writes them. A component without
    /// UID has none at the peer and a synthetic one here (`missingUID`): it is
    /// compared as the empty UID the peer shows.
    static func ours(_ name: String) throws -> [String] {
        let calendar = try ICSCalendar.load(path: folder.appendingPathComponent(name).path)
        let synthetic = Set(calendar.warnings.compactMap { warning -> String? in
            if case .missingUID(_, let uid) = warning.kind { return uid } else { return nil }
        })
        var warnings: [ICSWarning] = []
        return calendar.occurrences(from: window.from, to: window.to, warnings: &warnings).map { item in
            "\(synthetic.contains(item.uid) ? "" : item.uid)|\(text(item.start))|\(text(item.end))"
        }.sorted()
    }

    /// Where we read a file differently from the peer on purpose, and why
    /// (none since undated to-dos are listed as the peer lists them).
    static let explained: [String: String] = [:]

    /// Files that are not iCalendar at all, refused either way: `shared/spec/cli.md`
    /// says a file without BEGIN:VCALENDAR is not iCalendar, even when the peer
    /// reads what it holds.
    static let notICalendar: [String: String] = [
        "fuzz_testcase_0_char_in_component_name.ics": "its only line is `BeGIN:` and a NUL byte",
        "fuzz_testcase_invalid_month.ics": "starts with `BEGIN:V`, no VCALENDAR",
        "fuzz_testcase_vtimezone_lone_cr.ics": "a bare VTIMEZONE, no VCALENDAR",
        "issue_178_component_with_invalid_name_represented.ics": "a custom component, no VCALENDAR",
        "issue_178_custom_component_contains_other.ics": "a custom component, no VCALENDAR",
        "issue_82_expected_output.ics": "a bare VEVENT, no VCALENDAR",
    ]

    @Test func recordedPeerAnswersAreTheLivePeers() throws {
        let recorded = try Self.answers(Data(contentsOf: Self.recorded))
        #expect(recorded.version == "3.8.2")
        #expect(recorded.files.keys.sorted() == Self.corpus)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Benchmarks/Peers/bench-ics-peer.py")
        process.arguments = ["python3", script.path, "--occurrences", String(Self.window.from), String(Self.window.to)]
            + Self.corpus.map { Self.folder.appendingPathComponent($0).path }
        let finished = try process.runToEnd()
        // 127: no python3; 3: no recurring-ical-events (scripts/bootstrap --bench).
        if finished.status == 127 || finished.status == 3 {
            try Test.cancel("recurring-ical-events not installed; compared with the recorded answers only")
        }
        let live = try Self.answers(finished.standardOutput)
        guard live.version == recorded.version else {
            try Test.cancel("recurring-ical-events \(live.version) installed; the recording is of \(recorded.version)")
        }
        #expect(live.files == recorded.files)
    }

    /// Of the 78 files the peer reads, two have no BEGIN:VCALENDAR, which the
    /// contract refuses; the 76 others are identical (the undated to-dos of
    /// `issue_1050_*` included: `ICSEvent.isUndated`).
    @Test func sameOccurrencesAsRecurringICalEventsOnEveryICalendarFile() throws {
        let peer = try Self.answers(Data(contentsOf: Self.recorded)).files
        var identical: [String] = [], different: [String: (ours: [String], theirs: [String])] = [:], refused: [String] = []
        for (name, answer) in peer {
            guard case .occurrences(let theirs) = answer else { continue }
            if Self.notICalendar[name] != nil {
                refused.append(name)
                continue
            }
            let ours = try Self.ours(name)
            if ours == theirs { identical.append(name) } else { different[name] = (ours, theirs) }
        }
        #expect(identical.count + different.count + refused.count == 78)
        #expect(refused.sorted() == ["issue_178_component_with_invalid_name_represented.ics",
                                     "issue_178_custom_component_contains_other.ics"])
        #expect(identical.count == 76)
        #expect(Set(different.keys) == Set(Self.explained.keys),
                "unexplained differences: \(different.filter { Self.explained[$0.key] == nil }.map { "\($0.key):\n  ours   \($0.value.ours)\n  theirs \($0.value.theirs)" })")
        #expect(identical.contains("issue_1050_all_components.ics"))
        print("ICS corpus: \(identical.count) of \(identical.count + different.count) files the peer reads give the same occurrences")
    }

    @Test func everyFileIsReadUnlessItIsNotICalendarAtAll() throws {
        var refused: [String: String] = [:], warned = 0
        for name in Self.corpus {
            do {
                if try !ICSCalendar.load(path: Self.folder.appendingPathComponent(name).path).warnings.isEmpty { warned += 1 }
            } catch let failure {
                guard case .data(let error) = failure else { throw failure }
                refused[name] = error.message
            }
        }
        #expect(Set(refused.keys) == Set(Self.notICalendar.keys), "\(refused)")
        #expect(refused.values.allSatisfy { $0.hasPrefix("not an iCalendar file") })
        // The broken files are read with warnings; most files are clean.
        #expect(warned >= 30 && warned <= 60, "\(warned) of \(Self.corpus.count) files have warnings")
    }
}

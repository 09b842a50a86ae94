import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench dispatch`: the center's dispatcher on a virtual clock —
/// 1,000,000 mixed requests over a virtual year, calendar dispatches/s against a
/// peer that reschedules with Foundation's `Calendar.nextDate`, bytes per
/// pending request, and 1,000,000 pending requests saved to and reloaded from SQLite.
struct BenchDispatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Dispatcher: mixed requests over a virtual year, calendar dispatches/s vs Foundation, bytes/request, SQLite reload."
    )

    @Option(help: "Requests to schedule.")
    var requests = 1_000_000

    @Option(help: "Virtual days to run the mixed set for.")
    var days = 365

    @Option(help: "Calendar requests for the calendar-only rate (ours and the Foundation peer).")
    var calendarRequests = 100_000

    @Option(help: "Virtual days of the calendar-only run.")
    var calendarDays = 30

    @Option(help: "Timed runs of the calendar-only contenders; the median is reported.")
    var runs = 3

    @Option(help: "Seed of the generated requests.")
    var seed: UInt64 = 7

    @Flag(help: "Skip the SQLite save/reload.")
    var noStore = false

    @Flag(help: "Run only the SQLite save/reload (profiling a restart).")
    var storeOnly = false

    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    func run() async throws {
        let zone = try ZoneRules.named("Europe/Berlin")
        print("trigger-bench dispatch: \(requests) mixed requests, \(days) virtual days, zone Europe/Berlin, seed \(seed)")
        var random = BenchRandom(seed: seed)
        let mixed = try (0..<requests).map { try Self.request($0, mixed: true, using: &random) }

        if !storeOnly { try await runClock(mixed, zone: zone, random: &random) }
        // 3. SQLite: save all pending requests in one transaction, reload them.
        guard !noStore else { return }
        try await runStore(mixed, zone: zone)
    }

    /// Parts 1 and 2: the mixed set over the virtual year, then calendar triggers against Foundation.
    private func runClock(_ mixed: [NotificationRequest], zone: ZoneRules, random: inout BenchRandom) async throws {
        // 1. Schedule and run the mixed set over the virtual year.
        let rssBefore = Self.residentBytes()
        var clock = Date()
        let dispatcher = Dispatcher(now: Self.start, floatingZone: zone)
        for request in mixed { dispatcher.add(request) }
        let scheduleSeconds = Date().timeIntervalSince(clock)
        let rssAfter = Self.residentBytes()
        clock = Date()
        let fired = dispatcher.advanceCounting(to: Self.start.addingTimeInterval(Double(days) * 86_400))
        let yearSeconds = Date().timeIntervalSince(clock)
        print(String(format: "mixed:    scheduled %d in %.3f s (%.0f adds/s); %d days: %d dispatches in %.3f s = %.0f dispatches/s; %d still pending",
                     requests, scheduleSeconds, Double(requests) / scheduleSeconds, days, fired, yearSeconds,
                     Double(fired) / yearSeconds, dispatcher.pendingCount))
        let queueBytes = Dispatcher.queueBytesPerRequest
        print(String(format: "memory:   queue bookkeeping %d bytes/request (MemoryLayout: heap entry, slot arrays, identifier index at 3/4 load); "
                     + "resident-set delta %.0f bytes/request including the requests themselves (/proc/self/statm; a request value is %d bytes inline)",
                     queueBytes, Double(rssAfter - rssBefore) / Double(requests), MemoryLayout<NotificationRequest>.stride))

        // 2. Calendar triggers only: ours against Foundation's Calendar.nextDate.
        let calendar = try (0..<calendarRequests).map { try Self.request($0, mixed: false, using: &random) }
        let end = Self.start.addingTimeInterval(Double(calendarDays) * 86_400)
        var ours: [Double] = [], peer: [Double] = []
        var oursCount = 0, peerCount = 0, distinctPatterns = 0
        for _ in 0..<runs {
            let d = Dispatcher(now: Self.start, floatingZone: zone)
            for request in calendar { d.add(request) }
            distinctPatterns = d.distinctTriggerCount
            clock = Date()
            oursCount = d.advanceCounting(to: end)
            ours.append(Date().timeIntervalSince(clock))
            var p = FoundationPeer(requests: calendar, start: Self.start)
            clock = Date()
            peerCount = p.advance(to: end)
            peer.append(Date().timeIntervalSince(clock))
        }
        let oursRate = Double(oursCount) / median(ours), peerRate = Double(peerCount) / median(peer)
        print(String(format: "calendar: %d requests (%d distinct patterns), %d days, %d dispatches (peer %d)", calendarRequests,
                     distinctPatterns, calendarDays, oursCount, peerCount))
        print(String(format: "  ours        %12.0f dispatches/s (median %.3f s of %d; requests with the same pattern share one search)",
                     oursRate, median(ours), runs))
        print(String(format: "  Foundation  %12.0f dispatches/s (median %.3f s of %d; same heap, Calendar.nextDate to reschedule)",
                     peerRate, median(peer), runs))
        print(String(format: "  ratio       %.1fx", oursRate / peerRate))
    }

    /// Part 3: the mixed set saved to SQLite, then a center restarted from the file.
    private func runStore(_ mixed: [NotificationRequest], zone: ZoneRules) async throws {
        var clock = Date()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-dispatch-\(getpid()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let fresh = Dispatcher(now: Self.start, floatingZone: zone)
        let records = mixed.map { ScheduledRequest(request: $0, nextFire: fresh.add($0)) }
        var saveSeconds = 0.0
        do {
            let store = try NotificationStore(path: path)
            clock = Date()
            try store.savePending(records)
            saveSeconds = Date().timeIntervalSince(clock)
        } // closed here, as the process that wrote it would be: SQLite checkpoints and removes the WAL
        // A restart: a center opened on the file reads every row and rebuilds its dispatcher.
        clock = Date()
        let center = try UserNotificationCenter(now: Self.start, floatingZone: zone, store: try NotificationStore(path: path))
        let restartSeconds = Date().timeIntervalSince(clock)
        let restartedCount = await center.pendingRequestCount()
        let reader = try NotificationStore(path: path)
        clock = Date()
        let loaded = try reader.loadPending()
        let loadSeconds = Date().timeIntervalSince(clock)
        clock = Date()
        let rebuilt = Dispatcher(now: Self.start, floatingZone: zone)
        rebuilt.add(contentsOf: loaded)
        let rebuildSeconds = Date().timeIntervalSince(clock)
        print(String(format: "sqlite:   saved %d pending in %.3f s (one transaction, prepared statements); "
                     + "center restarted from the file with %d pending in %.3f s (rows read + dispatcher rebuilt); "
                     + "apart: rows read (loadPending) %.3f s, dispatcher rebuilt (add(contentsOf:)) %.3f s",
                     records.count, saveSeconds, restartedCount, restartSeconds, loadSeconds, rebuildSeconds))
        precondition(loaded.count == records.count && rebuilt.pendingCount == restartedCount)
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Request `index`: calendar (daily, weekly or monthly), recurrence or time interval.
    static func request(_ index: Int, mixed: Bool, using random: inout BenchRandom) throws -> NotificationRequest {
        let roll = mixed ? random.next() % 10 : 0
        let hour = Int(random.next() % 24), minute = Int(random.next() % 60)
        let trigger: NotificationTrigger
        switch roll {
        case 0..<6:
            var components = DateComponents(hour: hour, minute: minute)
            switch random.next() % 10 {
            case 0: break                                             // daily
            case 1..<4: components.weekday = Int(random.next() % 7) + 1 // weekly
            default: components.day = Int(random.next() % 28) + 1      // monthly
            }
            trigger = .calendar(try CalendarTrigger(dateMatching: components, repeats: true))
        case 6, 7:
            let rule = try RecurrenceRule(parsing: ["FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYDAY=-1FR",
                                                    "FREQ=MONTHLY;BYMONTHDAY=1,15"][Int(random.next() % 3)])
            trigger = .recurrence(try RecurrenceTrigger(rule: rule, start: try LocalDateTime(year: 2026, month: 1, day: 1,
                                                                                          hour: hour, minute: minute, second: 0),
                                                        timeZone: .fixed(try .named("Europe/Berlin"))))
        default:
            let repeats = random.next() % 2 == 0
            let interval = repeats ? Double(86_400 * (7 + Int(random.next() % 24))) : Double(60 + random.next() % (365 * 86_400))
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        }
        return NotificationRequest(identifier: "r\(index)", content: NotificationContent(title: "Reminder"), trigger: trigger)
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

/// The peer: the same heap discipline, rescheduling each calendar request with
/// Foundation's `Calendar.nextDate(after:matching:matchingPolicy:.nextTime)`.
struct FoundationPeer {
    struct Entry: Comparable {
        var fire: Date
        var index: Int
        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.fire, lhs.index) < (rhs.fire, rhs.index) }
    }

    let calendar = CalendarTrigger.foundationCalendar(in: TimeZone(identifier: "Europe/Berlin")!)
    var components: [DateComponents] = []
    /// A plain binary min-heap (the CLI target does not link swift-collections).
    var heap: [Entry] = []

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0, heap[child] < heap[(child - 1) / 2] {
            heap.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func pop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            var smallest = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < heap.count && heap[child] < heap[smallest] { smallest = child }
            guard smallest != parent else { return top }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    init(requests: [NotificationRequest], start: Date) {
        for request in requests {
            guard case .calendar(let trigger)? = request.trigger else { continue }
            components.append(trigger.dateComponents)
            if let fire = next(components.count - 1, after: start) { push(Entry(fire: fire, index: components.count - 1)) }
        }
    }

    func next(_ index: Int, after date: Date) -> Date? {
        calendar.nextDate(after: date, matching: components[index], matchingPolicy: .nextTime,
                          repeatedTimePolicy: .first, direction: .forward)
    }

    mutating func advance(to end: Date) -> Int {
        var count = 0
        while let first = heap.first, first.fire <= end {
            let top = pop()
            count += 1
            if let fire = next(top.index, after: top.fire) { push(Entry(fire: fire, index: top.index)) }
        }
        return count
    }
}

import ArgumentParser
import Foundation
import Synchronization
@_spi(Internals) import TriggerEngine

/// `trigger-bench center`: the notification center live on the wall clock
/// (issue 12) — lateness of deliveries at a given fire rate, acknowledged adds
/// through `trigger-eval run`, churn on one identifier, a location fix right
/// after an unrelated removal, and APScheduler 3.x with its SQLite job store on
/// the same date jobs.
struct BenchCenter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "center",
        abstract: "Live center: lateness at 1k and 10k fires/s, adds through run, churn, fix after removal, vs APScheduler."
    )

    @Option(help: "Fire rates to measure lateness at, per second.")
    var rates: [Int] = [1_000, 10_000]

    @Option(help: "Seconds of fires at each rate.")
    var seconds = 5.0

    @Option(help: "Add commands sent through `trigger-eval run`.")
    var runAdds = 100_000

    @Option(help: "Replacements of one identifier.")
    var churn = 1_000_000

    @Option(help: "Pending requests when timing fixes.")
    var pending = 200_000

    @Option(help: "Date jobs for the APScheduler comparison (0: skip it).")
    var jobs = 100_000

    @Flag(inversion: .prefixedNo, help: "Run APScheduler on the date jobs.")
    var peer = true

    static func temporaryStore(_ name: String) throws -> (NotificationStore, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-center-\(getpid())-\(name).sqlite").path
        removeStore(path)
        return (try NotificationStore(path: path), path)
    }

    static func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func run() async throws {
        print("trigger-bench center (load average \(BenchCenter.loadAverage()))")
        for rate in rates {
            for stored in [true, false] { try await lateness(rate: rate, stored: stored) }
        }
        if runAdds > 0 { try runCommandAdds() }
        if churn > 0 { try await replacements() }
        if pending > 0 { try await fixAfterRemoval() }
        if jobs > 0 { try await dateJobs() }
        print("(load average \(BenchCenter.loadAverage()) at the end)")
    }

    // MARK: Lateness

    /// Requests due at `rate` per second for `seconds`, starting two seconds
    /// ahead; each delivery's lateness is the handler's wall-clock time minus
    /// its due instant.
    private func lateness(rate: Int, stored: Bool) async throws {
        let count = Int(Double(rate) * seconds)
        let (store, path) = try stored ? Self.temporaryStore("lateness") : (nil, "")
        defer { if stored { Self.removeStore(path) } }
        let center = try await UserNotificationCenter.open(clock: WallClock(), store: store)
        try await center.requestAuthorization(options: [.alert])
        let recorded = Mutex<[Double]>([])
        recorded.withLock { $0.reserveCapacity(count) }
        await center.setDeliveryHandler { delivery in
            let late = Date().timeIntervalSince(delivery.due)
            recorded.withLock { $0.append(late) }
        }
        let origin = Date()
        let first = 2.0
        var requests: [NotificationRequest] = []
        requests.reserveCapacity(count)
        for index in 0..<count {
            let interval = first + Double(index) / Double(rate)
            requests.append(NotificationRequest(identifier: "r\(index)", content: NotificationContent(title: "r\(index)"),
                                                trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: false)),
                                                added: origin))
        }
        for batch in stride(from: 0, to: count, by: 5_000) {
            _ = try await center.add(contentsOf: Array(requests[batch..<min(count, batch + 5_000)]))
        }
        let addedBy = Date().timeIntervalSince(origin)
        let runner = Task { try await center.run() }
        await center.waitUntilIdle()
        await center.stop()
        try await runner.value
        let late = recorded.withLock { $0 }.map { $0 * 1_000 }
        let stats = Stats(late)
        print(String(format: "lateness: %6d fires/s for %.0f s, %@: %d fires, p50 %.3f ms, p99 %.3f ms, max %.3f ms, mean %.3f ms (adds done %.2f s after the origin, first due at %.0f s)",
                     rate, seconds, stored ? "SQLite store " : "no store     ", late.count, stats.median, stats.p99,
                     stats.max, stats.mean, addedBy, first))
    }

    // MARK: Adds through `trigger-eval run`

    /// `runAdds` add commands written to a `trigger-eval run` child as fast as
    /// it takes them; timed from the first byte written to the last reply read.
    private func runCommandAdds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-center-\(getpid())-run.sqlite").path
        Self.removeStore(path)
        defer { Self.removeStore(path) }
        let process = Process()
        process.executableURL = try Repository.triggerEval()
        process.arguments = ["run", "--store", path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        var text = ""
        for index in 0..<runAdds {
            text += #"{"add":{"identifier":"a\#(index)","content":{"title":"Reminder \#(index)","body":"Water the plants"},"trigger":{"calendar":{"dateMatching":{"hour":\#(index % 24),"minute":\#(index % 60)},"repeats":true,"timeZone":"Europe/Berlin"}}}}"#
            text += "\n"
        }
        let bytes = Data(text.utf8)
        try process.run()
        let started = Date()
        let writer = Thread {
            input.fileHandleForWriting.write(bytes)
        }
        writer.start()
        var replies = 0
        var errors = 0
        var pending = Data()
        while replies < runAdds {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                if pending[start] == UInt8(ascii: "{"), pending[pending.index(after: start)] == UInt8(ascii: "\"") {
                    if pending[start..<newline].starts(with: Data(#"{"ok""#.utf8)) { replies += 1 }
                    if pending[start..<newline].starts(with: Data(#"{"error""#.utf8)) { replies += 1; errors += 1 }
                }
                start = pending.index(after: newline)
            }
            pending.removeSubrange(pending.startIndex..<start)
        }
        let elapsed = Date().timeIntervalSince(started)
        process.terminate()
        process.waitUntilExit()
        print(String(format: "run adds: %d add commands acknowledged in %.3f s = %.0f acknowledged adds/s through trigger-eval run (SQLite store, group commit; %d errors)",
                     replies, elapsed, Double(replies) / elapsed, errors))
    }

    // MARK: Churn

    /// One identifier replaced `churn` times: heap entries and resident memory.
    private func replacements() async throws {
        let center = try UserNotificationCenter(now: Date(timeIntervalSince1970: 1_767_225_600))
        let residentBefore = BenchDispatch.residentBytes()
        var largestHeap = 0
        var samples: [String] = []
        for round in 0..<churn {
            let request = NotificationRequest(identifier: "same", content: NotificationContent(title: "same"),
                                              trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 + round % 977),
                                                                                             repeats: false)))
            try await center.add(request)
            if round % 4_096 == 0 { largestHeap = max(largestHeap, await center.queueHeapCount) }
            if (round + 1) % (churn / 4) == 0 {
                samples.append(String(format: "%.1f MB", Double(BenchDispatch.residentBytes() - residentBefore) / 1e6))
            }
        }
        largestHeap = max(largestHeap, await center.queueHeapCount)
        print("churn:    one identifier replaced \(churn) times: \(await center.pendingRequestCount()) pending, largest heap \(largestHeap) entries (target ≤ 2 × pending); resident-set growth after each quarter: \(samples.joined(separator: ", "))")
    }

    // MARK: Fix after an unrelated removal

    /// `pending` requests (1,000 of them location circles), then `rounds`
    /// times: remove one timer, time the next fix.
    private func fixAfterRemoval() async throws {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let center = try UserNotificationCenter(now: start)
        try await center.requestAuthorization(options: [.alert])
        var random = BenchRandom(seed: 12)
        let locationCount = min(1_000, pending)
        var requests: [NotificationRequest] = []
        for index in 0..<pending {
            let trigger: NotificationTrigger
            if index < locationCount {
                let center = Coordinate(latitude: 48.80 + Double(random.next() % 10_000) / 100_000,
                                        longitude: 2.25 + Double(random.next() % 20_000) / 100_000)
                trigger = .location(LocationTrigger(region: try Region.circle(center: center, radius: 150), repeats: true))
            } else {
                trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: Double(86_400 + index), repeats: false))
            }
            requests.append(NotificationRequest(identifier: "p\(index)", content: NotificationContent(title: "p"), trigger: trigger))
        }
        for batch in stride(from: 0, to: pending, by: 10_000) {
            _ = try await center.add(contentsOf: Array(requests[batch..<min(pending, batch + 10_000)]))
        }
        var times: [Double] = []
        let rounds = 2_000
        var latitude = 48.85, longitude = 2.35
        for round in 0..<rounds {
            try await center.removePendingNotificationRequests(withIdentifiers: ["p\(pending - 1 - round)"])
            latitude += Double(Int(random.next() % 201) - 100) / 1_000_000
            longitude += Double(Int(random.next() % 201) - 100) / 1_000_000
            let fix = LocationFix(device: "walker", time: start.addingTimeInterval(Double(round + 1)),
                                  coordinate: Coordinate(latitude: latitude, longitude: longitude))
            let begin = DispatchTime.now().uptimeNanoseconds
            _ = try await center.ingest(fix)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1_000)
        }
        let stats = Stats(Array(times.dropFirst()))
        print(String(format: "fix:      %d pending (%d location), each fix right after an unrelated removal, %d fixes: p50 %.1f µs, p99 %.1f µs, max %.1f µs, mean %.1f µs (the first fix, which builds the monitor, %.0f µs); monitor built %d times",
                     pending, locationCount, rounds - 1, stats.median, stats.p99, stats.max, stats.mean, times[0],
                     await center.locationMonitorBuilds))
    }

    // MARK: Date jobs against APScheduler

    /// `jobs` one-shot date jobs: adds per second one by one and in batches,
    /// then fires per second with all of them due within one second.
    private func dateJobs() async throws {
        let (store, path) = try Self.temporaryStore("jobs")
        defer { Self.removeStore(path) }
        let center = try await UserNotificationCenter.open(clock: WallClock(), store: store)
        try await center.requestAuthorization(options: [.alert])
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func job(_ index: Int, due: Date) throws -> NotificationRequest {
            let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: due)
            let components = DateComponents(year: parts.year, month: parts.month, day: parts.day,
                                            hour: parts.hour, minute: parts.minute, second: parts.second)
            return NotificationRequest(identifier: "job-\(index)", content: NotificationContent(title: "job"),
                                       trigger: .calendar(try CalendarTrigger(dateMatching: components,
                                                                              repeats: false, timeZone: .fixed(.utc))))
        }
        let later = Date().addingTimeInterval(86_400)
        let jobs = try (0..<self.jobs).map { try job($0, due: later) }
        var clock = Date()
        for request in jobs { try await center.add(request) }
        let oneByOne = Date().timeIntervalSince(clock)
        try await center.removeAllPendingNotificationRequests()
        clock = Date()
        for batch in stride(from: 0, to: jobs.count, by: 1_000) {
            _ = try await center.add(contentsOf: Array(jobs[batch..<min(jobs.count, batch + 1_000)]))
        }
        let batched = Date().timeIntervalSince(clock)
        try await center.removeAllPendingNotificationRequests()
        // Fires: all due within one second, from three seconds ahead.
        let origin = Date()
        let dueFirst = origin.addingTimeInterval(3)
        let due = try (0..<self.jobs).map { index in
            NotificationRequest(identifier: "job-\(index)", content: NotificationContent(title: "job"),
                                trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: 3 + Double(index) / Double(self.jobs),
                                                                               repeats: false)),
                                added: origin)
        }
        let fired = Mutex(0)
        await center.setDeliveryHandler { _ in fired.withLock { $0 += 1 } }
        for batch in stride(from: 0, to: due.count, by: 5_000) {
            _ = try await center.add(contentsOf: Array(due[batch..<min(due.count, batch + 5_000)]))
        }
        let runner = Task { try await center.run() }
        await center.waitUntilIdle()
        let fireSeconds = Date().timeIntervalSince(dueFirst)
        await center.stop()
        try await runner.value
        let oursAdds = Double(self.jobs) / oneByOne, oursBatched = Double(self.jobs) / batched
        let oursFires = Double(fired.withLock { $0 }) / fireSeconds
        print(String(format: "jobs:     %d date jobs, SQLite store (WAL, synchronous=NORMAL)", self.jobs))
        print(String(format: "  ours         %8.0f adds/s one by one (each awaited, its own commit), %8.0f adds/s in batches of 1,000; %8.0f fires/s (all due within 1 s)",
                     oursAdds, oursBatched, oursFires))
        guard self.peer, let peer = PythonPeer.run(script: "bench-center-peer.py", arguments: [String(self.jobs), "1.0"],
                                        label: "APScheduler", module: "apscheduler"),
              let peerAdds = peer["adds_per_second"] as? Double, let peerFires = peer["fires_per_second"] as? Double else { return }
        print(String(format: "  APScheduler  %8.0f adds/s (add_job, SQLAlchemy job store on SQLite, WAL);                               %8.0f fires/s", peerAdds, peerFires))
        print(String(format: "  ratio        %8.1fx adds one by one, %.1fx batched; %.1fx fires", oursAdds / peerAdds, oursBatched / peerAdds, oursFires / peerFires))
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "?"
    }
}

/// Median, p99, maximum and mean of a sample.
struct Stats {
    var median = 0.0, p99 = 0.0, max = 0.0, mean = 0.0

    init(_ values: [Double]) {
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        median = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }
}

extension ICSCalendar {
    /// The instances of one series whose start instant lies in [low, high),
    /// unsorted: RRULE (through `RecurrenceRule.instances`), RDATE, minus EXDATE,
    /// with RECURRENCE-ID overrides replacing or shifting (RANGE=THISANDFUTURE)
    /// instances — an override is judged by its own start, so moving an instance
    /// into or out of the window works. Cancelled instances are dropped.
    /// - Complexity: O(instances in the widened window), capped by `maxInstances`.
    func instances(of series: Series, startingFrom low: Int, before high: Int, warnings: inout [ICSWarning]) -> [ICSOccurrence] {
        var result: [ICSOccurrence] = []
        instances(of: series, startingFrom: low, before: high, into: &result, where: { _ in true }, warnings: &warnings)
        return result
    }

    /// As `instances(of:startingFrom:before:warnings:)`, appending to `result`
    /// those that pass `keep` (no intermediate array per series).
    func instances(of series: Series, startingFrom low: Int, before high: Int, into result: inout [ICSOccurrence],
                   where keep: (ICSOccurrence) -> Bool, warnings: inout [ICSWarning]) {
        let first = result.count
        let single = Dictionary(series.overrides.filter { !$0.thisAndFuture }.map { ($0.recurrenceID!.instant, $0) }, uniquingKeysWith: { a, _ in a })
        let futures = series.overrides.filter(\.thisAndFuture).sorted { $0.recurrenceID!.instant < $1.recurrenceID!.instant }
        for event in series.overrides where !event.isCancelled {
            let start = event.start.instant
            if start >= low && start < high {
                let source = ICSOccurrence.Source(uid: event.uid, event: event, zone: event.start.zone, isDate: event.start.isDate,
                                                  recurrenceID: event.recurrenceID)
                let item = occurrence(source, of: event, at: event.start, instant: start)
                if keep(item) { result.append(item) }
            }
        }
        guard let master = series.master, !master.isCancelled else { return }
        // An override of an instance the master excludes (EXDATE) stays deleted.
        result[first...].removeAll { $0.recurrenceID.map { master.excludes($0, instant: $0.instant) } ?? false }
        let shift = futures.map { abs($0.start.instant - $0.recurrenceID!.instant) }.max() ?? 0
        let searchLow = low - shift, searchHigh = high + shift
        // Each candidate with its instant, resolved once (zone lookups dominate
        // the cost). DTSTART is the first instance whether or not the rules match
        // it (RFC 5545 §3.8.5.3); several RRULEs give the union of their instances.
        var keys: [(time: ICSTime, instant: Int, periodEnd: Int?)] = [(master.start, master.start.instant, nil)]
        var count = 0
        let zone = master.start.zone
        let lowerLocal = LocalDateTime(localSeconds: zone.localTime(atUTC: searchLow).localSeconds - 2 * 86_400)
        rules: for rule in master.rules {
            var iterator = rule.instances(startingAt: master.start.local, in: zone, from: lowerLocal).makeIterator()
            defer {
                if iterator.stoppedAtWalkLimit {
                    warnings.append(ICSWarning(.countWalkTooLong(uid: master.uid, limit: RecurrenceInstances.Iterator.countWalkLimit),
                                               at: InputLocation(file: file, line: master.line)))
                }
            }
            while let local = iterator.next() {
                let time = ICSTime(local: local, zone: zone, isDate: master.start.isDate)
                let instant = time.instant
                if instant >= searchHigh { break }
                count += 1
                if count > maxInstances {
                    warnings.append(ICSWarning(.instanceCap(uid: master.uid, limit: maxInstances), at: InputLocation(file: file, line: master.line)))
                    break rules
                }
                keys.append((time, instant, nil))
            }
        }
        for rdate in master.recurrenceDates { keys.append((rdate.start, rdate.start.instant, rdate.end)) }
        // One shared source per event: the master's, one per THISANDFUTURE
        // override, and one for an RDATE in another zone or of another type.
        let masterSource = ICSOccurrence.Source(uid: master.uid, event: master, zone: master.start.zone, isDate: master.start.isDate, recurrenceID: nil)
        var futureSources: [Int: ICSOccurrence.Source] = [:]
        var seen = Set<Int>()
        for (time, key, periodEnd) in keys {
            guard seen.insert(key).inserted, !master.excludes(time, instant: key), single[key] == nil else { continue }
            if let futureIndex = futures.lastIndex(where: { $0.recurrenceID!.instant <= key }) {
                let future = futures[futureIndex]
                if future.recurrenceID!.instant == key { continue } // the override itself, listed above
                let delta = future.start.instant - future.recurrenceID!.instant
                let moved = ICSTime(local: time.zone.localTime(atUTC: key + delta), zone: time.zone, isDate: time.isDate)
                let start = time.isDate ? ICSTime(local: LocalDateTime(localSeconds: time.local.localSeconds + delta), zone: time.zone, isDate: true) : moved
                let startInstant = start.instant
                guard startInstant >= low && startInstant < high, !future.isCancelled else { continue }
                let source = futureSources[futureIndex] ?? ICSOccurrence.Source(uid: master.uid, event: future, zone: time.zone,
                                                                                isDate: time.isDate, recurrenceID: nil)
                futureSources[futureIndex] = source
                let item = occurrence(source, of: future, at: start, instant: startInstant)
                if keep(item) { result.append(item) }
                continue
            }
            guard key >= low && key < high else { continue }
            let sameKind = time.isDate == masterSource.isDate && time.zone.identifier == masterSource.zone.identifier
            let source = sameKind ? masterSource : ICSOccurrence.Source(uid: master.uid, event: master, zone: time.zone, isDate: time.isDate, recurrenceID: nil)
            let item: ICSOccurrence
            if let periodEnd {
                item = ICSOccurrence(source: source, start: time, startInstant: key,
                                     end: ICSTime(local: time.zone.localTime(atUTC: periodEnd), zone: time.zone, isDate: false))
            } else {
                item = occurrence(source, of: master, at: time, instant: key)
            }
            if keep(item) { result.append(item) }
        }
    }

    private func occurrence(_ source: ICSOccurrence.Source, of event: ICSEvent, at start: ICSTime, instant: Int) -> ICSOccurrence {
        ICSOccurrence(source: source, start: start, startInstant: instant, end: event.end(startingAt: start))
    }

    /// The indexes of the series sorted by UID, so that output sorted stably by
    /// time is sorted by (time, UID). Indexes, not a sorted copy: a `Series`
    /// holds its events inline, and a copy of 100,000 of them is 30 MB.
    private var seriesInUIDOrder: [Int] {
        let uids = series.map { ($0.master ?? $0.overrides[0]).uid }
        return uids.indices.sorted { uids[$0] < uids[$1] }
    }

    /// The longest instance of a series, in seconds (for widening windows).
    private func maxLength(_ series: Series) -> Int {
        ([series.master].compactMap { $0 } + series.overrides).map { $0.length.approximateSeconds + 2 * 86_400 }.max() ?? 0
    }

    /// Occurrences overlapping [from, to) (an all-day or zero-length one: starting
    /// in it), sorted by start, then UID.
    package func occurrences(from: Int, to: Int, warnings: inout [ICSWarning]) -> [ICSOccurrence] {
        var result: [ICSOccurrence] = []
        for index in seriesInUIDOrder {
            let series = series[index]
            instances(of: series, startingFrom: from - maxLength(series), before: to, into: &result, where: { item in
                let start = item.startInstant, end = item.endInstant
                return item.isAllDay || end == start ? (start >= from && start < to) : (start < to && end > from)
            }, warnings: &warnings)
        }
        // Appended in UID order, so a stable sort by start gives (start, UID).
        return result.stablySorted { $0.startInstant }
    }

    /// Every alarm firing in [from, to), sorted by time, then UID.
    package func alarmFirings(from: Int, to: Int, warnings: inout [ICSWarning]) -> [ICSAlarmFiring] {
        var result: [ICSAlarmFiring] = []
        var absoluteSeen = Set<String>()
        for index in seriesInUIDOrder {
            appendAlarmFirings(of: series[index], from: from, to: to, absoluteSeen: &absoluteSeen, into: &result, warnings: &warnings)
        }
        return result.stablySorted { $0.time }
    }

    /// `alarmFirings(from:to:warnings:)` for one series. (A function of its own:
    /// inlined in the loop over the series, Swift 6.3's optimiser failed its own
    /// ownership check on it and crashed, once `ZoneRules` held its table in
    /// one object.)
    private func appendAlarmFirings(of series: Series, from: Int, to: Int, absoluteSeen: inout Set<String>,
                                    into result: inout [ICSAlarmFiring], warnings: inout [ICSWarning]) {
        let events = [series.master].compactMap { $0 } + series.overrides
        let length = maxLength(series)
        let bounds = events.flatMap(\.alarms).compactMap { $0.offsetBounds(maxLength: length) }
        let hasAbsolute = events.flatMap(\.alarms).contains { if case .absolute = $0.trigger { true } else { false } }
        guard !bounds.isEmpty || hasAbsolute else { return }
        var low = from - (bounds.map(\.high).max() ?? 0), high = to - (bounds.map(\.low).min() ?? 0)
        if hasAbsolute { low = min(low, events.map(\.start.instant).min()!); high = max(high, low + 1) }
        for item in instances(of: series, startingFrom: low, before: high, warnings: &warnings) {
            for alarm in item.alarms {
                if case .absolute = alarm.trigger {
                    // An absolute trigger fires once, not per instance (§3.8.6.3).
                    guard absoluteSeen.insert("\(item.uid)\u{0}\(alarm.index)").inserted else { continue }
                }
                for time in alarm.firings(start: item.start, end: item.end) where time >= from && time < to {
                    result.append(ICSAlarmFiring(time: time, occurrence: item, alarm: alarm))
                }
            }
        }
    }

    /// Notification requests for [from, to): one per alarm firing, and one at the
    /// start of each occurrence without alarms (an undated to-do has none: it
    /// has no time to fire at).
    package func notificationRequests(from: Int, to: Int, warnings: inout [ICSWarning]) -> [ICSImportedRequest] {
        var result: [ICSImportedRequest] = []
        for firing in alarmFirings(from: from, to: to, warnings: &warnings) {
            let item = firing.occurrence
            result.append(ICSImportedRequest(identifier: "\(item.uid)/\(RFC3339.string(epochSeconds: item.startInstant))/alarm-\(firing.alarm.index)",
                                             title: item.summary, body: firing.alarm.description.isEmpty ? item.description : firing.alarm.description,
                                             fireTime: firing.time))
        }
        for item in occurrences(from: from, to: to, warnings: &warnings) where item.alarms.isEmpty && item.startInstant >= from && !item.isUndated {
            result.append(ICSImportedRequest(identifier: "\(item.uid)/\(RFC3339.string(epochSeconds: item.startInstant))",
                                             title: item.summary, body: item.description, fireTime: item.startInstant))
        }
        return result.sorted { ($0.fireTime, $0.identifier) < ($1.fireTime, $1.identifier) }
    }
}

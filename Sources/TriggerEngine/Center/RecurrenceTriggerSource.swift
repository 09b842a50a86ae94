/// A recurrence trigger's JSON form (`rrule`, `dtstart`, `tz`, `exdates`,
/// `rdates`): what request JSON holds and what `trigger()` builds a
/// `RecurrenceTrigger` from. A trigger writes itself back through
/// `init(_:)`, so the trigger is the one value a request keeps.
package struct RecurrenceTriggerSource: Sendable, Hashable, Codable {
    package var rrule: String?
    /// A local wall time `YYYY-MM-DDTHH:MM:SS`, or with a trailing `Z` for UTC.
    package var dtstart: String
    /// The zone: an IANA name, a fixed offset (`UTC+3600s`) or a zone table's
    /// JSON (`ZoneRules+Coding`); `nil` makes the trigger floating.
    package var tz: String?
    package var exdates: [String]
    package var rdates: [String]

    package init(rrule: String?, dtstart: String, tz: String?, exdates: [String] = [], rdates: [String] = []) {
        self.rrule = rrule
        self.dtstart = dtstart
        self.tz = tz
        self.exdates = exdates
        self.rdates = rdates
    }

    /// The form of a built trigger: its rule as RFC 5545 text, its wall times
    /// and its zone, which `trigger()` builds back into an equal trigger.
    package init(_ trigger: RecurrenceTrigger) {
        let zone: String? = switch trigger.timeZone {
        case .fixed(let rules): rules.encodedText
        case .floating: nil
        }
        self.init(rrule: trigger.rule?.description, dtstart: trigger.start.description, tz: zone,
                  exdates: trigger.exceptionDates.map(\.description), rdates: trigger.recurrenceDates.map(\.description))
    }

    enum CodingKeys: String, CodingKey { case rrule, dtstart, tz, exdates, rdates }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rrule: try c.decodeIfPresent(String.self, forKey: .rrule),
                  dtstart: try c.decode(String.self, forKey: .dtstart),
                  tz: try c.decodeIfPresent(String.self, forKey: .tz),
                  exdates: try c.decodeIfPresent([String].self, forKey: .exdates) ?? [],
                  rdates: try c.decodeIfPresent([String].self, forKey: .rdates) ?? [])
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(rrule, forKey: .rrule)
        try c.encode(dtstart, forKey: .dtstart)
        try c.encodeIfPresent(tz, forKey: .tz)
        if !exdates.isEmpty { try c.encode(exdates, forKey: .exdates) }
        if !rdates.isEmpty { try c.encode(rdates, forKey: .rdates) }
    }

    /// Builds the trigger with the same rules as `trigger-eval next --rrule`
    /// (`LocalDateTime.parsing`): a UTC DTSTART makes the whole set UTC (RFC 5545 §3.3.5).
    /// - Throws: `DataError` naming the bad field.
    package func trigger() throws(DataError) -> RecurrenceTrigger {
        let (start, utc) = try LocalDateTime.parsing(dtstart, field: "dtstart")
        let zone: TriggerTimeZone
        if utc { zone = .fixed(.utc) } else if let tz { zone = .fixed(try ZoneRules.decoded(text: tz)) } else { zone = .floating }
        func walls(_ texts: [String], _ field: String) throws(DataError) -> [LocalDateTime] {
            var result: [LocalDateTime] = []
            for text in texts {
                let (wall, isUTC) = try LocalDateTime.parsing(text, field: field)
                if isUTC, !utc, case .fixed(let rules) = zone {
                    result.append(rules.localTime(atUTC: wall.localSeconds))
                } else {
                    result.append(wall)
                }
            }
            return result
        }
        let rule = try rrule.map { text throws(DataError) in try RecurrenceRule(parsing: text) }
        return try RecurrenceTrigger(rule: rule, start: start, timeZone: zone,
                                     recurrenceDates: try walls(rdates, "rdates"),
                                     exceptionDates: try walls(exdates, "exdates"))
    }
}

/// A defect in a calendar that was read around rather than refused: what was
/// wrong, what the reader did about it, and the line. Real calendars are messy
/// (a VEVENT without UID, a misspelt RRULE part, a mistyped END), and one such
/// defect should not cost the user the rest of the file; `ICSCalendar.load`
/// returns the warnings with the calendar, and `strict` turns the first into an
/// error instead.
public struct ICSWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong; each case says in `message` what was done.
    public enum Kind: Sendable, Hashable {
        // MARK: Lines and structure (RFC 5545 §3.1, §3.4, §3.6)

        /// A line without `NAME:value` (the text's first 60 characters): skipped.
        case brokenLine(String)
        /// A folded continuation before any line it could continue: skipped.
        case continuationWithoutLine
        /// An unfolded line longer than `ICSLimits.maximumLineBytes`: skipped.
        case lineTooLong(bytes: Int, limit: Int)
        /// A property outside any VCALENDAR (after its END, or before its BEGIN): ignored.
        case propertyOutsideCalendar(String)
        /// A component at the top level instead of inside a VCALENDAR: a
        /// VEVENT, VTODO, VTIMEZONE… is read as if inside one; an unknown one
        /// (`asCalendar`) is read as the calendar, its children as its components.
        case componentOutsideCalendar(String, asCalendar: Bool)
        /// `END:found` while `open` (begun at `openLine`) was the innermost
        /// component and no open component has that name: `open` is closed at
        /// the next BEGIN of its parent's level, or its parent's END.
        case mistypedEnd(found: String, open: String, openLine: Int)
        /// An END that closes an outer component while `name` (begun at `line`)
        /// is still open: `name` closed there too.
        case unclosedComponent(String, line: Int)
        /// The file ends inside `name`, begun at `line`: closed at the end of the file.
        case unclosedAtEndOfFile(String, line: Int)
        /// `END:name` with nothing open: ignored.
        case endWithoutBegin(String)
        /// A component nested deeper than `ICSLimits.maximumNesting`: skipped with its content.
        case nestedTooDeep(String, limit: Int)
        /// More components than `ICSLimits.maximumComponents`: the rest of the file is skipped.
        case tooManyComponents(limit: Int)

        // MARK: Events and to-dos (RFC 5545 §3.6.1, §3.6.2)

        /// A VEVENT or VTODO without UID: given `synthesized`, a hash of its content.
        case missingUID(component: String, synthesized: String)
        /// A second master (no RECURRENCE-ID) with the same UID, or a second
        /// override of the same instance; `keptLine` is the one kept (the higher
        /// SEQUENCE; on a tie the first).
        case duplicateUID(String, keptLine: Int)
        /// A VEVENT without DTSTART (or a VTODO without DTSTART and DUE): skipped.
        case missingStart(component: String, uid: String)
        /// DTSTART or RECURRENCE-ID whose value is not a date: the component is skipped.
        case badStart(property: String, value: String)
        /// A property whose value cannot be read (DTEND, DURATION, an RDATE or
        /// EXDATE value, REPEAT): that property or value is ignored.
        case badValue(property: String, value: String)
        /// DTEND or DUE before DTSTART: the instance ends at its start.
        case endBeforeStart(property: String)
        /// An RRULE part that is unknown, given twice or out of range: ignored.
        case badRulePart(String, reason: String)
        /// An RRULE that cannot be read at all (no FREQ, RSCALE): ignored; the
        /// component keeps DTSTART and its RDATEs.
        case badRule(reason: String)
        /// A VALARM without TRIGGER, or with one that cannot be read: skipped.
        case badAlarm(reason: String)

        // MARK: Time zones (RFC 5545 §3.2.19, §3.6.5)

        /// A TZID that no VTIMEZONE, IANA or Windows name resolves: read as floating time.
        case unknownTimeZone(String)
        /// A VTIMEZONE that cannot be used: `reason` says why and what was done.
        case badTimeZone(String, reason: String)

        // MARK: Expansion

        /// More than `limit` instances of one series in the window: the rest skipped.
        case instanceCap(uid: String, limit: Int)
        /// A COUNT rule that must walk more than `limit` instances from DTSTART
        /// to reach the window: the series is cut there (UNTIL has no such cost).
        case countWalkTooLong(uid: String, limit: Int)
    }

    /// What was wrong.
    public var kind: Kind
    /// The file and line it concerns.
    public var location: InputLocation

    /// A warning of `kind` at `location`.
    public init(_ kind: Kind, at location: InputLocation) {
        self.kind = kind
        self.location = location
    }

    /// `FILE:LINE: message`.
    public var description: String { "\(location): \(message)" }

    /// What was wrong and what was done, in one line.
    public var message: String {
        switch kind {
        case .brokenLine(let text): return "broken line (no 'NAME:value'): \(text); skipped the line"
        case .continuationWithoutLine: return "continuation line with nothing to continue; skipped the line"
        case .lineTooLong(let bytes, let limit):
            return "line of \(bytes) bytes is longer than the limit of \(limit); skipped the line"
        case .propertyOutsideCalendar(let name): return "property \(name) outside VCALENDAR; ignored it"
        case .componentOutsideCalendar(let name, let asCalendar):
            return "BEGIN:\(name) outside VCALENDAR; read it " + (asCalendar ? "as the calendar" : "as if inside one")
        case .mistypedEnd(let found, let open, let line):
            return "END:\(found) does not close BEGIN:\(open) of line \(line); closed \(open) at the next component of its parent's level"
        case .unclosedComponent(let name, let line): return "BEGIN:\(name) of line \(line) is never closed; closed it here"
        case .unclosedAtEndOfFile(let name, let line): return "BEGIN:\(name) of line \(line) is never closed; closed it at the end of the file"
        case .endWithoutBegin(let name): return "END:\(name) without BEGIN; ignored it"
        case .nestedTooDeep(let name, let limit):
            return "BEGIN:\(name) is nested more than \(limit) components deep; skipped it with its content"
        case .tooManyComponents(let limit):
            return "more than \(limit) components; skipped the rest of the file"
        case .missingUID(let component, let synthesized): return "\(component) without UID; gave it the UID \(synthesized)"
        case .duplicateUID(let uid, let keptLine):
            return "UID \(uid) again for the same instance (no RECURRENCE-ID, or the same one); kept the component of line \(keptLine) (higher SEQUENCE, else the first)"
        case .missingStart(let component, let uid): return "\(component) \(uid) without DTSTART; skipped it"
        case .badStart(let property, let value): return "bad date '\(value)' in \(property); skipped the component"
        case .badValue(let property, let value): return "bad value '\(value)' in \(property); ignored it"
        case .endBeforeStart(let property): return "\(property) is before DTSTART; took DTSTART as the end"
        case .badRulePart(let part, let reason): return "RRULE part \(part): \(reason); ignored the part"
        case .badRule(let reason): return "RRULE: \(reason); ignored the rule (DTSTART and RDATEs remain)"
        case .badAlarm(let reason): return "VALARM \(reason); skipped the alarm"
        case .unknownTimeZone(let tzid):
            return "unknown TZID '\(tzid)' (no VTIMEZONE in the file, not an IANA or Windows zone name); read its times as floating"
        case .badTimeZone(let tzid, let reason): return "VTIMEZONE \(tzid): \(reason)"
        case .countWalkTooLong(let uid, let limit):
            return "UID \(uid): its RRULE's COUNT needs more than \(limit) instances walked from DTSTART to reach the window; the series is cut there (use UNTIL)"
        case .instanceCap(let uid, let limit):
            return "UID \(uid): more than \(limit) instances in the window; the rest are skipped (raise --max-instances)"
        }
    }

    /// The warning as the error `--strict` reports.
    public var error: DataError { DataError(message, at: location) }
}

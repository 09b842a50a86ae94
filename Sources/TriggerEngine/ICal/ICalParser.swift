internal import CICal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libical's parser (`icalparser`) on a whole file, and a walk over what it
/// built: what the ICalendarImport article's comparison of the two parsers measures. The
/// calendar reader is ours (`ICSFileReader`); this is its yardstick.
@_spi(Internals) public enum ICalParser {
    /// Parses the file at `path` with `icalparser_parse`, fed line by line
    /// through `fgets` (libical's own example), into one tree (a VCALENDAR, or
    /// an XROOT holding several).
    /// - Throws: `ICalError` when the file cannot be opened or nothing parses.
    @_spi(Internals) public static func parse(file path: String) throws(ICalError) -> ICalComponent {
        ICalLibrary.prepare()
        guard let stream = fopen(path, "r") else {
            throw ICalError(code: String(cString: strerror(errno)), context: "opening \(path)")
        }
        defer { fclose(stream) }
        guard let parser = icalparser_new() else { throw ICalError(code: "no memory", context: "creating a parser") }
        defer { icalparser_free(parser) }
        icalparser_set_gen_data(parser, stream)
        ICalError.clear()
        // Returns the root, or NULL when not one component could be made.
        guard let root = icalparser_parse(parser, { line, size, data in
            fgets(line, Int32(size), data?.assumingMemoryBound(to: FILE.self))
        }) else {
            throw ICalError.current(while: "parsing \(path)") ?? ICalError(code: "no component", context: "parsing \(path)")
        }
        return ICalComponent.taking(root)
    }
}

extension ICalComponent {
    /// Whether libical marked anything in the tree as unparsable (`X-LIC-ERROR`
    /// properties, or an `XLICINVALID` root).
    @_spi(Internals) public var hasParseErrors: Bool { kind == ICAL_XLICINVALID_COMPONENT || !parseErrors().isEmpty }

    /// Visits every VEVENT and VTODO of the tree (in a VCALENDAR, or in each
    /// VCALENDAR of an XROOT) and reads what an expansion needs first: UID,
    /// DTSTART and RRULE (`icalproperty_get_dtstart`, `icalproperty_get_rrule`).
    /// Returns the number of components visited.
    @_spi(Internals) public func walkEventsAndTodos() -> Int {
        var visited = 0
        func visit(_ calendar: OpaquePointer) {
            for kind in [ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT] {
                var child = icalcomponent_get_first_component(calendar, kind)
                while let component = child {
                    visited += 1
                    _ = icalcomponent_get_uid(component)
                    if let start = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) {
                        _ = icalproperty_get_dtstart(start)
                    }
                    if let rule = icalcomponent_get_first_property(component, ICAL_RRULE_PROPERTY) {
                        _ = icalproperty_get_rrule(rule)
                    }
                    child = icalcomponent_get_next_component(calendar, kind)
                }
            }
        }
        if kind == ICAL_VCALENDAR_COMPONENT {
            visit(handle)
        } else {
            var calendar = icalcomponent_get_first_component(handle, ICAL_VCALENDAR_COMPONENT)
            while let current = calendar {
                visit(current)
                calendar = icalcomponent_get_next_component(handle, ICAL_VCALENDAR_COMPONENT)
            }
        }
        return visited
    }
}

/// Streams a calendar file into its top-level components, one at a time
/// (RFC 5545 §3.4, §3.6): reads line by line with `LineReader`, unfolds (§3.1:
/// a line starting with a space or tab continues the previous one), and keeps
/// the line each content line began on. Memory: one component at a time.
///
/// Reading is lenient, the way calendar clients read: a broken line, a mistyped
/// or missing END, a property or component outside VCALENDAR is reported through
/// `warn` and read around (each `ICSWarning.Kind` says how). Only a file that is
/// not iCalendar at all, whose first line is not a `BEGIN:` of a component, is
/// an error. The bounds of `ICSLimits` (line length, nesting, components) are
/// enforced here, where the input enters.
@_spi(Internals) public struct ICSFileReader {
    /// Reads `path` (`-` for stdin; a FIFO waits `fifoWait` seconds at most
    /// for a writer, `ICSInput`), calling `component` with each component
    /// inside VCALENDAR (VEVENT, VTODO, VTIMEZONE, …), `calendarProperty` with
    /// each VCALENDAR property, and `warn` with each defect read around.
    /// - Throws: `InputFileError` when unreadable, `DataError` when the file is
    ///   not iCalendar, or what a callback throws (`warn` throws to be strict).
    ///   `opening` is the file to open when it is not `path` (which then only names the input).
    @_spi(Internals) public static func read(path: String, opening: String? = nil, fifoWait: Double = 30,
                                             limits: ICSLimits = .standard,
                                             warn: (ICSWarning) throws(DataError) -> Void,
                                             calendarProperty: (ICSContentLine) throws(DataError) -> Void,
                                             component: (ICSComponentText) throws(DataError) -> Void) throws {
        let reader = try ICSInput.lineReader(path: opening ?? path, fifoWait: fifoWait)
        var state = State(path: path, limits: limits)
        // The content line being unfolded: its bytes (up to the limit), its
        // full length and the line it began on.
        var pending: [UInt8] = []
        var pendingLength = 0
        var pendingLine = 0
        var sawContent = false

        func flush() throws {
            defer {
                pending.removeAll(keepingCapacity: pending.count < 1 << 16)
                pendingLength = 0
            }
            guard pendingLength > 0 else { return }
            if pendingLength > limits.maximumLineBytes {
                return try warn(ICSWarning(.lineTooLong(bytes: pendingLength, limit: limits.maximumLineBytes), at: InputLocation(file: path, line: pendingLine)))
            }
            var text = String(decoding: pending, as: UTF8.self)
            if !sawContent {
                if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
                // The command-line contract: a file without BEGIN:VCALENDAR is not iCalendar at all.
                guard Self.isBeginLine(text), text.dropFirst(6).uppercased() == "VCALENDAR" else {
                    throw DataError("not an iCalendar file (expected BEGIN:VCALENDAR, found '\(text.prefix(40))')",
                                    at: InputLocation(file: path, line: pendingLine))
                }
                sawContent = true
            }
            try state.handle(text, line: pendingLine, warn: warn, calendarProperty: calendarProperty, component: component)
        }

        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            pendingLength += bytes.count
            if pendingLength <= limits.maximumLineBytes { pending.append(contentsOf: bytes) }
        }

        while let bytes = try reader.nextLine(), !state.finished {
            // Empty lines are not iCalendar; skipped, they do not end a folded line.
            if bytes.isEmpty { continue }
            if bytes[0] == 0x20 || bytes[0] == 0x09 {
                // Folded continuation (§3.1): drop the one leading white-space character.
                guard pendingLength > 0 else {
                    guard sawContent else {
                        throw DataError("not an iCalendar file (expected BEGIN:VCALENDAR, found a line starting with white space)",
                                        at: InputLocation(file: path, line: reader.lineNumber))
                    }
                    try warn(ICSWarning(.continuationWithoutLine, at: InputLocation(file: path, line: reader.lineNumber)))
                    continue
                }
                append(UnsafeBufferPointer(rebasing: bytes.dropFirst()))
                continue
            }
            try flush()
            pendingLine = reader.lineNumber
            append(bytes)
        }
        if !state.finished { try flush() }
        guard sawContent else { throw DataError("not an iCalendar file (no BEGIN:VCALENDAR)", at: InputLocation(file: path, line: 1)) }
        try state.finish(warn: warn, component: component)
    }

    /// `read(path:fifoWait:limits:warn:calendarProperty:component:)` with the
    /// defects read around silently.
    package static func read(path: String,
                            calendarProperty: (ICSContentLine) throws(DataError) -> Void,
                            component: (ICSComponentText) throws(DataError) -> Void) throws {
        try read(path: path, warn: { _ in }, calendarProperty: calendarProperty, component: component)
    }

    /// Whether `text` is `BEGIN:` and a component name (RFC 5545 §3.1: letters,
    /// digits and `-`), the way every iCalendar file starts.
    static func isBeginLine(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count > 6, text.prefix(6).uppercased() == "BEGIN:" else { return false }
        return utf8.dropFirst(6).allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
        }
    }
}

extension ICSFileReader {
    /// The open components and what the reader knows about them.
    struct State {
        let path: String
        let limits: ICSLimits
        /// Open components, outermost first; `stack[0]` is the VCALENDAR (or
        /// what stands for one).
        var stack: [ICSComponentText] = []
        /// Per open component: whether a mistyped END asked to close it at the
        /// next component of its parent's level.
        var closePending: [Bool] = []
        /// While > 0, inside a component nested too deep: BEGIN/END are counted,
        /// everything else is skipped.
        var skipping = 0
        var components = 0
        /// Set once `maximumComponents` is passed: the rest of the file is skipped.
        var finished = false

        init(path: String, limits: ICSLimits) {
            self.path = path
            self.limits = limits
        }

        func location(_ line: Int) -> InputLocation { InputLocation(file: path, line: line) }

        mutating func handle(_ text: String, line: Int,
                             warn: (ICSWarning) throws(DataError) -> Void,
                             calendarProperty: (ICSContentLine) throws(DataError) -> Void,
                             component: (ICSComponentText) throws(DataError) -> Void) throws {
            if skipping > 0 {
                // Only the nesting matters inside a skipped component.
                let upper = text.prefix(6).uppercased()
                if upper == "BEGIN:" { skipping += 1 } else if upper.hasPrefix("END:") { skipping -= 1 }
                return
            }
            let content: ICSContentLine
            do {
                content = try ICSContentLine(parsing: text, line: line, file: path)
            } catch {
                return try warn(ICSWarning(.brokenLine(String(text.prefix(60))), at: location(line)))
            }
            switch content.name {
            case "BEGIN":
                try begin(content.value.uppercased(), line: line, warn: warn, component: component)
            case "END":
                try end(content.value.uppercased(), line: line, warn: warn, component: component)
            default:
                guard !stack.isEmpty else {
                    return try warn(ICSWarning(.propertyOutsideCalendar(content.name), at: location(line)))
                }
                if stack.count == 1 { try calendarProperty(content) } else { stack[stack.count - 1].properties.append(content) }
            }
        }

        private mutating func begin(_ name: String, line: Int,
                                    warn: (ICSWarning) throws(DataError) -> Void,
                                    component: (ICSComponentText) throws(DataError) -> Void) throws {
            components += 1
            if components > limits.maximumComponents {
                finished = true
                return try warn(ICSWarning(.tooManyComponents(limit: limits.maximumComponents), at: location(line)))
            }
            // A mistyped END closes its component at the next BEGIN that cannot be its child.
            while let last = closePending.last, last, !Self.canContain(stack[stack.count - 1].name, name) {
                try close(component: component)
            }
            if stack.isEmpty && name != "VCALENDAR" {
                if Self.calendarChildren.contains(name) {
                    // A bare VEVENT (some tools write one): as if a VCALENDAR held it.
                    try warn(ICSWarning(.componentOutsideCalendar(name, asCalendar: false), at: location(line)))
                    push(ICSComponentText(name: "VCALENDAR", line: line))
                    // Closed by the end of the file or the next VCALENDAR, without a warning.
                    closePending[0] = true
                } else {
                    // An unknown wrapper: read as the calendar, its children as components.
                    try warn(ICSWarning(.componentOutsideCalendar(name, asCalendar: true), at: location(line)))
                    push(ICSComponentText(name: name, line: line))
                    return
                }
            }
            if stack.count >= limits.maximumNesting {
                skipping = 1
                return try warn(ICSWarning(.nestedTooDeep(name, limit: limits.maximumNesting), at: location(line)))
            }
            push(ICSComponentText(name: name, line: line))
        }

        private mutating func push(_ component: ICSComponentText) {
            stack.append(component)
            closePending.append(false)
        }

        private mutating func end(_ name: String, line: Int,
                                  warn: (ICSWarning) throws(DataError) -> Void,
                                  component: (ICSComponentText) throws(DataError) -> Void) throws {
            guard let depth = stack.lastIndex(where: { $0.name == name }) else {
                guard let top = stack.last else {
                    return try warn(ICSWarning(.endWithoutBegin(name), at: location(line)))
                }
                if closePending[closePending.count - 1] {
                    return try warn(ICSWarning(.endWithoutBegin(name), at: location(line)))
                }
                closePending[closePending.count - 1] = true
                return try warn(ICSWarning(.mistypedEnd(found: name, open: top.name, openLine: top.line), at: location(line)))
            }
            // Components left open inside the one this END closes are closed here too.
            while stack.count > depth + 1 {
                let top = stack[stack.count - 1]
                if !closePending[closePending.count - 1] {
                    try warn(ICSWarning(.unclosedComponent(top.name, line: top.line), at: location(line)))
                }
                try close(component: component)
            }
            try close(component: component)
        }

        /// Closes the innermost component: hands it over at the calendar's
        /// level, attaches it to its parent deeper down.
        private mutating func close(component: (ICSComponentText) throws(DataError) -> Void) throws {
            let top = stack.removeLast()
            closePending.removeLast()
            if stack.count == 1 {
                try component(top)
            } else if stack.count > 1 {
                stack[stack.count - 1].children.append(top)
            }
        }

        /// At the end of the file: what is still open is closed, with a warning
        /// unless a mistyped END already announced it.
        mutating func finish(warn: (ICSWarning) throws(DataError) -> Void,
                             component: (ICSComponentText) throws(DataError) -> Void) throws {
            // Past the component limit, what is open is incomplete: dropped.
            if finished { return }
            while let top = stack.last {
                if !closePending[closePending.count - 1] {
                    try warn(ICSWarning(.unclosedAtEndOfFile(top.name, line: top.line), at: location(top.line)))
                }
                try close(component: component)
            }
        }

        /// Components RFC 5545 (and RFC 7953, 9073) put directly in a VCALENDAR.
        static let calendarChildren: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]

        /// Whether `child` may nest in `parent`, for closing a component whose
        /// END was mistyped: a VALARM may follow in a VEVENT, a VEVENT may not.
        static func canContain(_ parent: String, _ child: String) -> Bool {
            switch parent {
            case "VCALENDAR": return child != "VCALENDAR"
            case "VEVENT", "VTODO", "VJOURNAL": return ["VALARM", "VLOCATION", "VRESOURCE", "PARTICIPANT"].contains(child)
            case "VTIMEZONE": return child == "STANDARD" || child == "DAYLIGHT"
            case "VAVAILABILITY": return child == "AVAILABLE"
            case "PARTICIPANT": return child == "VLOCATION" || child == "VRESOURCE"
            default: return false
            }
        }
    }
}

/// Streams a calendar file into its top-level components, one at a time
/// (RFC 5545 §3.4, §3.6): reads line by line with `LineReader`, unfolds (§3.1:
/// a line starting with a space or tab continues the previous one), and keeps
/// the line each content line began on. Memory: one component at a time.
public struct ICSFileReader {
    /// Reads `path` (`-` for stdin), calling `body` with each component inside
    /// VCALENDAR (VEVENT, VTODO, VTIMEZONE, …) and each VCALENDAR property.
    /// - Throws: `InputFileError` when unreadable, `DataError` with the line for
    ///   broken lines, unbalanced BEGIN/END or a file that is not a calendar.
    public static func read(path: String,
                            calendarProperty: (ICSContentLine) throws(DataError) -> Void,
                            component: (ICSComponentText) throws(DataError) -> Void) throws {
        let reader = try LineReader(path: path)
        var pending: String?
        var pendingLine = 0
        var stack: [ICSComponentText] = []
        var sawCalendar = false
        var calendarEnded = false

        func handle(_ text: String, line: Int) throws(DataError) {
            if text.isEmpty { return }
            let content = try ICSContentLine(parsing: text, line: line, file: path)
            let location = InputLocation(file: path, line: line)
            switch content.name {
            case "BEGIN":
                let name = content.value.uppercased()
                if stack.isEmpty {
                    guard name == "VCALENDAR", !sawCalendar || calendarEnded else {
                        throw DataError("expected BEGIN:VCALENDAR, found BEGIN:\(content.value)", at: location)
                    }
                    sawCalendar = true
                    calendarEnded = false
                }
                stack.append(ICSComponentText(name: name, line: line))
            case "END":
                let name = content.value.uppercased()
                guard let top = stack.popLast() else { throw DataError("END:\(content.value) without BEGIN", at: location) }
                guard top.name == name else {
                    throw DataError("END:\(content.value) does not close BEGIN:\(top.name) of line \(top.line)", at: location)
                }
                if stack.count == 1 {
                    try component(top)
                } else if stack.count > 1 {
                    stack[stack.count - 1].children.append(top)
                } else {
                    calendarEnded = true
                }
            default:
                guard !stack.isEmpty else { throw DataError("property \(content.name) outside VCALENDAR", at: location) }
                if stack.count == 1 { try calendarProperty(content) } else { stack[stack.count - 1].properties.append(content) }
            }
        }

        while let bytes = try reader.nextLine() {
            let lineNumber = reader.lineNumber
            if let first = bytes.first, first == 0x20 || first == 0x09 {
                // Folded continuation (§3.1): drop the one leading white-space character.
                guard pending != nil else {
                    throw DataError("continuation line with nothing to continue", at: InputLocation(file: path, line: lineNumber))
                }
                pending! += String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
                continue
            }
            if let text = pending { try handle(text, line: pendingLine) }
            var text = String(decoding: bytes, as: UTF8.self)
            if lineNumber == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            pending = text
            pendingLine = lineNumber
        }
        if let text = pending { try handle(text, line: pendingLine) }
        guard sawCalendar else { throw DataError("not an iCalendar file (no BEGIN:VCALENDAR)", at: InputLocation(file: path, line: 1)) }
        if let open = stack.last {
            throw DataError("BEGIN:\(open.name) is never closed (file ends)", at: InputLocation(file: path, line: open.line))
        }
    }
}

/// A component read from a calendar file: its name, its own content lines and
/// its sub-components (VALARM in VEVENT, STANDARD/DAYLIGHT in VTIMEZONE), with
/// the line it began on. Kept as text so that line numbers survive to the errors.
public struct ICSComponentText: Sendable {
    /// VEVENT, VTODO, VTIMEZONE, VALARM, …
    public var name: String
    /// The line of its BEGIN.
    public var line: Int
    /// Its properties, in file order.
    public var properties: [ICSContentLine] = []
    /// Nested components.
    public var children: [ICSComponentText] = []

    /// The first property named `name`.
    public func first(_ name: String) -> ICSContentLine? { properties.first { $0.name == name } }

    /// Every property named `name`.
    public func all(_ name: String) -> [ICSContentLine] { properties.filter { $0.name == name } }

    /// The component written back as iCalendar text (for libical, which parses VTIMEZONEs).
    public var icalText: String {
        var text = "BEGIN:\(name)\r\n"
        for property in properties {
            text += property.name
            for (key, value) in property.parameters.sorted(by: { $0.key < $1.key }) {
                text += ";\(key)=" + (value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value)\"" : value)
            }
            text += ":\(property.value)\r\n"
        }
        for child in children { text += child.icalText }
        return text + "END:\(name)\r\n"
    }
}

/// A component read from a calendar file: its name, its own content lines and
/// its sub-components (VALARM in VEVENT, STANDARD/DAYLIGHT in VTIMEZONE), with
/// the line it began on. Kept as text so that line numbers survive to the errors.
@_spi(Internals) public struct ICSComponentText: Sendable {
    /// VEVENT, VTODO, VTIMEZONE, VALARM, …
    package var name: String
    /// The line of its BEGIN.
    package var line: Int
    /// Its properties, in file order.
    package var properties: [ICSContentLine] = []
    /// Nested components.
    package var children: [ICSComponentText] = []

    /// The first property named `name`.
    package func first(_ name: String) -> ICSContentLine? { properties.first { $0.name == name } }

    /// Every property named `name`.
    package func all(_ name: String) -> [ICSContentLine] { properties.filter { $0.name == name } }

    /// A UID for a component that has none (RFC 5545 requires one; some
    /// exporters leave it out): a hash of its properties, DTSTAMP left out, so the
    /// same event gets the same UID in every export of it.
    package var syntheticUID: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01B3
            }
        }
        mix(name)
        for property in properties where property.name != "DTSTAMP" {
            mix(property.name)
            for (key, value) in property.parameters.sorted(by: { $0.key < $1.key }) { mix(key); mix(value) }
            mix(property.value)
        }
        let digits = String(hash, radix: 16)
        return "synthetic-" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}

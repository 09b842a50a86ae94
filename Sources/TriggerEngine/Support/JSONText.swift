/// JSON text for the command line's hand-written output lines.
package enum JSONText {
    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped, everything else as it is (UTF-8, `/` unescaped).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON array of string literals.
    package static func array(_ texts: [String]) -> String {
        "[" + texts.map(quoted).joined(separator: ",") + "]"
    }
}

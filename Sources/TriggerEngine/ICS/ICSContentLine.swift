/// One unfolded RFC 5545 §3.1 content line: `NAME;PARAM=VALUE…:value`, with the
/// number of the physical line it started on.
@_spi(Internals) public struct ICSContentLine: Sendable, Hashable {
    /// The property or BEGIN/END name, upper-cased (names are case-insensitive, §3.1).
    package var name: String
    /// Parameters, names upper-cased, quotes removed (§3.2).
    package var parameters: [String: String]
    /// The raw value after the first unquoted colon.
    package var value: String
    /// The 1-based line the content line starts on.
    package var line: Int

    /// Parses one unfolded line.
    /// - Throws: `DataError` when there is no colon outside quotes (a broken line).
    package init(parsing text: String, line: Int, file: String) throws(DataError) {
        self.line = line
        var name = ""
        var parameters: [String: String] = [:]
        var index = text.startIndex
        // Name: up to ';' or ':'.
        while index < text.endIndex, text[index] != ";", text[index] != ":" { index = text.index(after: index) }
        name = String(text[text.startIndex..<index]).uppercased()
        guard !name.isEmpty, index < text.endIndex else {
            throw DataError("broken line (no 'NAME:value'): \(text.prefix(60))", at: InputLocation(file: file, line: line))
        }
        // Parameters: ;NAME=value or ;NAME="quoted", until the first colon outside quotes (§3.2).
        while text[index] == ";" {
            index = text.index(after: index)
            let nameStart = index
            while index < text.endIndex, text[index] != "=", text[index] != ":", text[index] != ";" { index = text.index(after: index) }
            let parameterName = String(text[nameStart..<index]).uppercased()
            var parameterValue = ""
            if index < text.endIndex, text[index] == "=" {
                index = text.index(after: index)
                var inQuotes = false
                while index < text.endIndex {
                    let character = text[index]
                    if character == "\"" { inQuotes.toggle() }
                    else if !inQuotes && (character == ";" || character == ":") { break }
                    else { parameterValue.append(character) }
                    index = text.index(after: index)
                }
            }
            guard index < text.endIndex else {
                throw DataError("broken line (no ':' after the parameters): \(text.prefix(60))", at: InputLocation(file: file, line: line))
            }
            parameters[parameterName] = parameterValue
        }
        self.name = name
        self.parameters = parameters
        self.value = String(text[text.index(after: index)...])
    }

    /// The value as TEXT (§3.3.11): `\n`/`\N` → newline, `\,` `\;` `\\` → the character.
    package var textValue: String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

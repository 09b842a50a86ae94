/// A coding key made of any name: for JSON objects whose one key says what
/// they are (`{"calendar":{…}}`, `{"add":{…}}`).
package struct NamedKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ string: String) { stringValue = string }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

/// The file a map is written as.
public enum MapFormat: String, Sendable, CaseIterable {
    /// A standalone SVG document (`<title>` tooltips on regions, tracks and events).
    case svg
    /// An HTML page holding the SVG, with hover details shown at once beside the
    /// pointer; everything inline, nothing fetched.
    case html

    /// The format a file name asks for: `.svg`, or `.html` / `.htm` (any case).
    public init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "svg": self = .svg
        case "html", "htm": self = .html
        default: return nil
        }
    }
}

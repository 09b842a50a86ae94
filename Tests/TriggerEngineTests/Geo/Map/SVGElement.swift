import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element tree, parsed with Foundation's `XMLParser` (libxml2 on Linux):
/// the map tests read the SVG as XML, not as text.
final class SVGElement {
    let name: String
    let attributes: [String: String]
    private(set) var children: [SVGElement] = []
    private(set) var text = ""
    weak var parent: SVGElement?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses a document; an error when it is not well-formed XML.
    static func parse(_ data: Data) throws -> SVGElement {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw Failure(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "no root")")
        }
        return root
    }

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// Every element below this one (depth first), this one first.
    var all: [SVGElement] { [self] + children.flatMap(\.all) }

    func element(id: String) -> SVGElement? { all.first { $0["id"] == id } }

    func elements(named name: String) -> [SVGElement] { all.filter { $0.name == name } }

    /// The text of the `<title>` child, if any.
    var title: String? { children.first { $0.name == "title" }?.text }

    /// The classes in `class`.
    var classes: [String] { (self["class"] ?? "").split(separator: " ").map(String.init) }

    /// The points of a path's `d` attribute as the map writes it (absolute `M`
    /// and `L` pairs; a relative `l0 0` dot and `H`/`V` lengths are skipped),
    /// each subpath apart.
    var subpaths: [[(x: Double, y: Double)]] {
        var result: [[(x: Double, y: Double)]] = []
        var numbers: [Double] = []
        var current = ""
        var skipping = false
        func flushNumber() {
            if !skipping, let value = Double(current) { numbers.append(value) }
            current = ""
        }
        func flushPath() {
            flushNumber()
            var points: [(x: Double, y: Double)] = []
            var index = 0
            while index + 1 < numbers.count { points.append((numbers[index], numbers[index + 1])); index += 2 }
            if !points.isEmpty { result.append(points) }
            numbers = []
        }
        for character in self["d"] ?? "" {
            switch character {
            case "M": flushNumber(); skipping = false; flushPath()
            case "L", "Z": flushNumber(); skipping = false
            case "l", "H", "V": flushNumber(); skipping = true
            case " ", ",": flushNumber()
            case "-": flushNumber(); current = "-"
            default: current.append(character)
            }
        }
        flushPath()
        return result
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGElement?
        var current: SVGElement?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let element = SVGElement(name: name, attributes: attributes)
            if let current {
                current.children.append(element)
                element.parent = current
            } else {
                root = element
            }
            current = element
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            current = current?.parent
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            current?.text += string
        }
    }
}

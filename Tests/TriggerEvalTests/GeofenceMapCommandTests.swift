import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("trigger-eval geofence --map: the map file beside unchanged events")
struct GeofenceMapCommandTests {
    static let root = GeofenceCommandTests.root
    static let bus = GeofenceCommandTests.bus
    static let busArguments = ["geofence", "--regions", GeofenceCommandTests.regions, "--fixes", bus,
                               "--columns", GeofenceCommandTests.busColumns, "--initial", "enter", "--dwell", "120", "--cross"]

    /// Element names under `<g id="events">`, and whether the document is well-formed XML.
    final class EventCounter: NSObject, XMLParserDelegate {
        var depthInEvents = 0
        var markers: [String] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if depthInEvents > 0 {
                if depthInEvents == 1 { markers.append(attributes["class"] ?? "") }
                depthInEvents += 1
            } else if attributes["id"] == "events" {
                depthInEvents = 1
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if depthInEvents > 0 { depthInEvents -= 1 }
        }

        static func markers(in data: Data) -> [String]? {
            let counter = EventCounter()
            let parser = XMLParser(data: data)
            parser.delegate = counter
            return parser.parse() ? counter.markers : nil
        }
    }

    @Test(arguments: [["--threads", "2"], ["--threads", "1"], ["--format", "csv"]])
    func eventsAreByteIdenticalWithAndWithoutAMap(_ extra: [String]) throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try CLIRunner.run(Self.busArguments + extra + ["-q"])
        #expect(plain.status == 0 && plain.stdout.count > 10_000)
        for name in ["run.svg", "run.html", "RUN.HTM"] {
            let map = folder.appendingPathComponent(name).path
            let mapped = try CLIRunner.run(Self.busArguments + extra + ["-q", "--map", map])
            #expect(mapped.status == 0, "\(mapped.stderr)")
            #expect(mapped.stdout == plain.stdout, "\(name)")
            #expect(FileManager.default.fileExists(atPath: map))
        }
        // And to a file with -o.
        let output = folder.appendingPathComponent("events.out").path
        let toFile = try CLIRunner.run(Self.busArguments + extra + ["-q", "-o", output, "--map", folder.appendingPathComponent("again.svg").path])
        #expect(toFile.status == 0 && toFile.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == plain.stdout)
    }

    @Test func svgHoldsOneMarkerPerEventOfItsKind() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("bus.svg")
        let result = try CLIRunner.run(Self.busArguments + ["--map", map.path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("map: \(map.path): 8 tracks, 1533 fixes and "))
        let data = try Data(contentsOf: map)
        #expect(data.starts(with: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ".utf8)))
        let markers = try #require(EventCounter.markers(in: data), "the SVG is well-formed XML")
        let kinds = result.stdout.split(separator: "\n").map { line in
            String(line.split(separator: "\"event\":\"")[1].prefix { $0 != "\"" })
        }
        #expect(kinds.count == 160)
        #expect(markers == kinds.map { "ev \($0)" })

        let html = folder.appendingPathComponent("bus.html")
        #expect(try CLIRunner.run(Self.busArguments + ["-q", "--map", html.path]).status == 0)
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg ") && page.contains("<script>"))
        #expect(!page.contains("src=") && !page.contains("https:"))
    }

    @Test func badMapNamesAreUsageErrors() throws {
        for (name, output) in [("run.png", nil), ("-", nil), ("map", nil), ("same.svg", "same.svg")] {
            let result = try CLIRunner.run(Self.busArguments + ["--map", name] + (output.map { ["-o", $0] } ?? []))
            #expect(result.status == 64, "\(name)")
            #expect(result.stderr.contains("--map must name a .svg or .html file other than the output"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func failedRunLeavesNeitherEventsNorMap() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try GeofenceCommandTests.write("log.csv", """
            device,time,lat,lon
            a,2026-01-26T15:57:00Z,53.44451,-2.925173
            a,not a time,53.44451,-2.925173
            """, in: folder)
        let map = folder.appendingPathComponent("run.html").path
        let output = folder.appendingPathComponent("events.ndjson").path
        let failed = try CLIRunner.run(["geofence", "--regions", GeofenceCommandTests.regions, "--fixes", log, "--strict",
                                        "-o", output, "--map", map])
        #expect(failed.status == 65)
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(contents == ["log.csv"], "\(contents)")
    }
}

import Foundation
import TestSupport

/// `rsvg-convert` (librsvg, Debian package librsvg2-bin): the real renderer the
/// map tests draw with. When it is missing, the first test that needs it runs
/// `scripts/bootstrap`, which installs it with apt as it does the other system
/// packages; if that fails the tests fail and say so.
enum Renderer {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The renderer's path, installed once per test run when missing.
    static let executable: Result<String, Failure> = {
        if let found = find() { return .success(found) }
        let bootstrap = Process()
        bootstrap.executableURL = URL(fileURLWithPath: "/bin/bash")
        bootstrap.arguments = [root.appendingPathComponent("scripts/bootstrap").path]
        do {
            // It may install packages with apt: a generous limit.
            _ = try bootstrap.runToEnd(atMost: .seconds(900))
        } catch {
            return .failure(Failure(description: "rsvg-convert is missing and scripts/bootstrap could not run: \(error)"))
        }
        if let found = find() { return .success(found) }
        return .failure(Failure(description: "rsvg-convert is missing and scripts/bootstrap did not install it (apt install librsvg2-bin)"))
    }()

    private static func find() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(folder)/rsvg-convert"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Renders an SVG file to PNG at its own size and decodes it.
    static func render(_ svg: URL) throws -> PNGImage {
        let png = svg.deletingPathExtension().appendingPathExtension("png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable.get())
        process.arguments = [svg.path, "-o", png.path]
        let finished = try process.runToEnd()
        guard finished.status == 0 else {
            throw Failure(description: "rsvg-convert failed: " + finished.errors)
        }
        return try PNGImage(contentsOf: png)
    }
}

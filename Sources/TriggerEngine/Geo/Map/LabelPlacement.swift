/// Places region labels so that they do not cover one another, as web maps do:
/// each label tries its places in turn (its region's middle, then above and
/// below it) and takes the first that is free. On a map of a few regions a
/// label that finds no free place is still drawn at its first place (every
/// region named); on a map of many, it is left out (the region keeps its
/// tooltip).
struct LabelPlacement {
    struct Label {
        var text: String
        var x: Double, y: Double
    }

    /// Whether a label with no free place is drawn anyway.
    let keepCrowded: Bool
    private(set) var placed: [Label] = []
    private var boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = []
    /// Boxes by 64-pixel cell, so that a map of thousands of labels stays fast.
    private var cells: [Int64: [Int]] = [:]
    private static let cell = 64.0
    static let height = 13.0

    init(keepCrowded: Bool) {
        self.keepCrowded = keepCrowded
    }

    /// About how wide a label is in pixels (11 px bold sans-serif).
    static func width(of text: String) -> Double {
        Double(text.count) * 7 + 6
    }

    /// Places `text` at the first free point of `candidates` (baseline centres).
    mutating func place(_ text: String, candidates: [(x: Double, y: Double)]) {
        guard let first = candidates.first else { return }
        let halfWidth = Self.width(of: text) / 2
        let chosen = candidates.first { !overlaps(box(halfWidth, $0)) } ?? (keepCrowded ? first : nil)
        guard let chosen else { return }
        let taken = box(halfWidth, chosen)
        let index = boxes.count
        boxes.append(taken)
        placed.append(Label(text: text, x: chosen.x, y: chosen.y))
        forEachCell(of: taken) { cells[$0, default: []].append(index) }
    }

    private func box(_ halfWidth: Double, _ point: (x: Double, y: Double))
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (point.x - halfWidth, point.y - Self.height + 3, point.x + halfWidth, point.y + 3)
    }

    private func overlaps(_ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        var found = false
        forEachCell(of: box) { key in
            guard !found, let indices = cells[key] else { return }
            found = indices.contains { other in
                let o = boxes[other]
                return o.minX < box.maxX && o.maxX > box.minX && o.minY < box.maxY && o.maxY > box.minY
            }
        }
        return found
    }

    private func forEachCell(of box: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ body: (Int64) -> Void) {
        let clamp = { (value: Double) in Int64(min(max(value / Self.cell, -1e6), 1e6).rounded(.down)) }
        for column in clamp(box.minX)...clamp(box.maxX) {
            for row in clamp(box.minY)...clamp(box.maxY) { body((column << 32) ^ (row & 0xFFFF_FFFF)) }
        }
    }
}

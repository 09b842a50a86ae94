import Foundation
internal import GRDB

/// Reads pending rows (`PendingTable`) in add order. The shared triggers are
/// read first, kept as columns and parsed the first time a row refers to one,
/// so each distinct trigger is parsed once and every other row costs one
/// integer lookup. Each shared trigger has a dense index (`sharedTrigger`) a
/// restart keys its compiled schedules by.
struct PendingRowReader {
    private enum Shared {
        case columns(TriggerColumns)
        case parsed(NotificationTrigger)
    }

    /// Dense index by `triggers.id` (row ids count up from 1, with holes
    /// where rows were pruned): -1 for an id with no row. A table whose ids are
    /// too sparse for an array uses `sparseIndexByID` instead.
    private var indexByID: [Int32] = []
    private var sparseIndexByID: [Int64: Int32] = [:]
    private var shared: [Shared] = []
    private var sharedKinds: [Int] = []

    /// Reads the `triggers` table.
    init(_ db: Database) throws {
        let bounds = try Row.fetchOne(db, sql: "SELECT count(*), max(id) FROM triggers")
        let (count, maxID): (Int, Int64) = (bounds?[0] ?? 0, bounds?[1] ?? 0)
        let dense = maxID <= Int64(4 * count + 65_536)
        if dense { indexByID = [Int32](repeating: -1, count: Int(max(maxID, 0)) + 1) }
        let rows = try Row.fetchCursor(db, sql: PendingTable.selectTriggers)
        while let row = try rows.next() {
            var columns = TriggerColumns()
            columns.kind = row[1]
            columns.repeats = row[2]
            columns.zone = row[3]
            columns.parameters = row[4]
            columns.start = row[5]
            columns.exdates = row[6]
            columns.rdates = row[7]
            let id: Int64 = row[0]
            if dense, id >= 0 {
                indexByID[Int(id)] = Int32(shared.count)
            } else {
                sparseIndexByID[id] = Int32(shared.count)
            }
            shared.append(.columns(columns))
            sharedKinds.append(columns.kind)
        }
    }

    /// How many shared triggers the store holds.
    var sharedTriggerCount: Int { shared.count }

    /// The record of one row read with `PendingTable.select`, and the dense
    /// index of its shared trigger (`nil` for the kinds stored in the row).
    /// - Throws: `DataError` naming the request when a column does not make a valid request.
    mutating func decode(_ row: Row) throws -> (record: ScheduledRequest, sharedTrigger: Int32?) {
        let identifier = (row[0] as StoredText).string
        do {
            let nextFire: Double? = row[2]
            let added: Double? = row[3]
            let misfire = try StoredCodes.misfirePolicy(code: row[4])
            let (trigger, sharedTrigger) = try self.trigger(row)
            var userInfo: [String: UserInfoValue] = [:]
            if let json: Data = row[16] { userInfo = try StoreJSON.decode([String: UserInfoValue].self, from: json) }
            let sound = (row[13] as StoredText?).map { StoredCodes.sound(text: $0.string) }
            // Text through StoredText: GRDB's String would stop at a U+0000.
            func text(_ index: Int) -> String { (row[index] as StoredText).string }
            let content = NotificationContent(title: text(9), subtitle: text(10), body: text(11), badge: row[12],
                                              sound: sound, userInfo: userInfo, categoryIdentifier: text(14),
                                              threadIdentifier: text(15))
            let request = NotificationRequest(identifier: identifier, content: content, trigger: trigger,
                                              misfirePolicy: misfire,
                                              added: added.map { Date(timeIntervalSince1970: $0) })
            let record = ScheduledRequest(request: request, recipient: text(1),
                                                         nextFire: nextFire.map { Date(timeIntervalSince1970: $0) })
            return (record, sharedTrigger)
        } catch {
            throw DataError("stored request '\(identifier)' does not decode: \(error)")
        }
    }

    private mutating func trigger(_ row: Row) throws -> (NotificationTrigger?, Int32?) {
        var columns = TriggerColumns()
        columns.kind = row[5]
        guard columns.isShared else {
            columns.repeats = row[6]
            columns.interval = row[7]
            return (try columns.trigger(), nil)
        }
        guard let id: Int64 = row[8] else { throw DataError("trigger kind \(columns.kind) without a trigger row") }
        let index = id >= 0 && id < indexByID.count ? indexByID[Int(id)] : sparseIndexByID[id] ?? -1
        guard index >= 0 else { throw DataError("trigger row \(id) is not in the store") }
        guard sharedKinds[Int(index)] == columns.kind else {
            throw DataError("trigger row \(id) is of kind \(sharedKinds[Int(index)]), the request's of kind \(columns.kind)")
        }
        switch shared[Int(index)] {
        case .parsed(let trigger):
            return (trigger, index)
        case .columns(let stored):
            // Kinds 1, 3 and 4 always make a trigger.
            guard let trigger = try stored.trigger() else { throw DataError("trigger row \(id) makes no trigger") }
            shared[Int(index)] = .parsed(trigger)
            return (trigger, index)
        }
    }
}

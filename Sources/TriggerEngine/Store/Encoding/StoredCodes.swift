/// The store's names for the public enumerations it writes, spelled out here so
/// that renaming a case or a raw value in the API cannot change what a
/// database holds (or make an old one unreadable).
enum StoredCodes {
    /// The `misfire` column's integers (schema 2 on; the order `allCases` had then).
    static func code(of policy: MisfirePolicy) -> Int {
        switch policy {
        case .fireOnceNow: 0
        case .skipToNext: 1
        case .fireAll: 2
        }
    }

    static func misfirePolicy(code: Int) throws(DataError) -> MisfirePolicy {
        switch code {
        case 0: return .fireOnceNow
        case 1: return .skipToNext
        case 2: return .fireAll
        default: throw DataError("misfire policy \(code) is unknown")
        }
    }

    /// A sound as the `sound` column and the stored JSON hold it: `default`, or the file name.
    static func text(of sound: NotificationSound) -> String {
        switch sound {
        case .default: "default"
        case .named(let name): name
        }
    }

    static func sound(text: String) -> NotificationSound {
        text == "default" ? .default : .named(text)
    }

    static func text(of kind: RegionEvent.Kind) -> String {
        switch kind {
        case .enter: "enter"
        case .exit: "exit"
        case .dwell: "dwell"
        case .cross: "cross"
        }
    }

    static func regionEventKind(text: String) throws(DataError) -> RegionEvent.Kind {
        switch text {
        case "enter": return .enter
        case "exit": return .exit
        case "dwell": return .dwell
        case "cross": return .cross
        default: throw DataError("region event kind '\(text)' is unknown")
        }
    }

    static func text(of state: MonitorOptions.InitialState) -> String {
        switch state {
        case .none: "none"
        case .enter: "enter"
        }
    }

    static func initialState(text: String) throws(DataError) -> MonitorOptions.InitialState {
        switch text {
        case "none": return .none
        case "enter": return .enter
        default: throw DataError("monitor initial state '\(text)' is unknown")
        }
    }
}

import Foundation

/// An event fire (`EventFire`) as the store writes it in JSON; see
/// `StoredRequest` for why the store keeps its own form.
package struct StoredEventFire: Codable {
    struct Event: Codable {
        var device: String
        var region: String
        var kind: String
        var time: Double
        var lat: Double
        var lon: Double
    }

    var id: String
    var request: StoredRequest
    var recipient: String
    var due: Double
    var event: Event?

    package init(_ fire: EventFire) throws {
        id = fire.id.rawValue
        request = try StoredRequest(fire.request)
        recipient = fire.recipient
        due = fire.due.timeIntervalSince1970
        event = fire.regionEvent.map { event in
            Event(device: event.device, region: event.region, kind: StoredCodes.text(of: event.kind),
                  time: event.time.timeIntervalSince1970, lat: event.coordinate.latitude,
                  lon: event.coordinate.longitude)
        }
    }

    package func fire() throws -> EventFire {
        let regionEvent = try event.map { event throws in
            RegionEvent(device: event.device, region: event.region,
                        kind: try StoredCodes.regionEventKind(text: event.kind),
                        time: Date(timeIntervalSince1970: event.time),
                        coordinate: Coordinate(latitude: event.lat, longitude: event.lon))
        }
        return EventFire(id: DeliveryID(rawValue: id), request: try request.request(), recipient: recipient,
                         due: Date(timeIntervalSince1970: due), regionEvent: regionEvent)
    }
}

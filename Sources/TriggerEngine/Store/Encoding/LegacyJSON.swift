import Foundation

/// The JSON the stores wrote before they had their own forms (SQLite schema
/// versions 1–4, PostgreSQL schema version 1): the public types' `Codable`,
/// which is also the command line's JSON. Only the migrations read it.
///
/// It decodes through the public `Codable` as it stands. Should the command
/// line's JSON ever change incompatibly, this file is where a frozen copy of
/// the old decoding goes, so that old stores still migrate.
package enum LegacyJSON {
    package static func request(_ data: Data) throws -> NotificationRequest {
        try JSONDecoder().decode(NotificationRequest.self, from: data)
    }

    package static func category(_ data: Data) throws -> NotificationCategory {
        try JSONDecoder().decode(NotificationCategory.self, from: data)
    }

    package static func eventFire(_ data: Data) throws -> EventFire {
        try JSONDecoder().decode(LegacyEventFire.self, from: data).fire
    }

    /// A location trigger's `parameters` in the `triggers` table: `{"location":{…}}`.
    package static func locationTrigger(_ text: String) throws -> LocationTrigger {
        guard case .location(let trigger) = try JSONDecoder().decode(NotificationTrigger.self, from: Data(text.utf8)) else {
            throw DataError("a location trigger row holds another kind of trigger")
        }
        return trigger
    }

    /// `EventFire` as schema 4 wrote it.
    private struct LegacyEventFire: Decodable {
        var fire: EventFire

        private enum CodingKeys: String, CodingKey { case id, request, recipient, due, event }
        private enum EventKeys: String, CodingKey { case device, region, kind, time, lat, lon }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            var regionEvent: RegionEvent?
            if c.contains(.event) {
                let e = try c.nestedContainer(keyedBy: EventKeys.self, forKey: .event)
                regionEvent = RegionEvent(device: try e.decode(String.self, forKey: .device),
                                          region: try e.decode(String.self, forKey: .region),
                                          kind: try StoredCodes.regionEventKind(text: try e.decode(String.self, forKey: .kind)),
                                          time: Date(timeIntervalSince1970: try e.decode(Double.self, forKey: .time)),
                                          coordinate: Coordinate(latitude: try e.decode(Double.self, forKey: .lat),
                                                                 longitude: try e.decode(Double.self, forKey: .lon)))
            }
            fire = EventFire(id: DeliveryID(rawValue: try c.decode(String.self, forKey: .id)),
                             request: try c.decode(NotificationRequest.self, forKey: .request),
                             recipient: try c.decode(String.self, forKey: .recipient),
                             due: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .due)),
                             regionEvent: regionEvent)
        }
    }
}

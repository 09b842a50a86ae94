import Foundation

/// A fire caused by an event rather than the clock: a location request whose
/// region a device entered or left, or a push. It is stored the moment the
/// event is taken (so an acknowledged fix or push is never lost) and handed
/// over by the same path as clock fires; the store forgets it once the
/// hand-over is committed.
struct EventFire: Sendable, Hashable {
    /// Its identity, fixed when the event is taken.
    var id: DeliveryID
    /// The request to deliver (a one-shot location request has already left
    /// the pending requests; a push never was one).
    var request: NotificationRequest
    var recipient: String
    /// The event's instant: the fix's time, or when the push arrived.
    var due: Date
    /// The region event, for a location fire.
    var regionEvent: RegionEvent?
}

extension EventFire: Codable {
    private enum CodingKeys: String, CodingKey { case id, request, recipient, due, event }
    private enum EventKeys: String, CodingKey { case device, region, kind, time, lat, lon }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(DeliveryID.self, forKey: .id)
        request = try c.decode(NotificationRequest.self, forKey: .request)
        recipient = try c.decode(String.self, forKey: .recipient)
        due = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .due))
        if c.contains(.event) {
            let e = try c.nestedContainer(keyedBy: EventKeys.self, forKey: .event)
            guard let kind = RegionEvent.Kind(rawValue: try e.decode(String.self, forKey: .kind)) else {
                throw DataError("stored region event of an unknown kind")
            }
            regionEvent = RegionEvent(device: try e.decode(String.self, forKey: .device),
                                      region: try e.decode(String.self, forKey: .region), kind: kind,
                                      time: Date(timeIntervalSince1970: try e.decode(Double.self, forKey: .time)),
                                      coordinate: Coordinate(latitude: try e.decode(Double.self, forKey: .lat),
                                                             longitude: try e.decode(Double.self, forKey: .lon)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(request, forKey: .request)
        try c.encode(recipient, forKey: .recipient)
        try c.encode(due.timeIntervalSince1970, forKey: .due)
        if let event = regionEvent {
            var e = c.nestedContainer(keyedBy: EventKeys.self, forKey: .event)
            try e.encode(event.device, forKey: .device)
            try e.encode(event.region, forKey: .region)
            try e.encode(event.kind.rawValue, forKey: .kind)
            try e.encode(event.time.timeIntervalSince1970, forKey: .time)
            try e.encode(event.coordinate.latitude, forKey: .lat)
            try e.encode(event.coordinate.longitude, forKey: .lon)
        }
    }
}

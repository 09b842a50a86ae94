/// The look of a geofence map: size, colours and marks. The defaults are chosen
/// to read on screen and in print; every colour is a CSS colour.
public struct MapStyle: Sendable, Hashable {
    /// The title at the top of the legend (for example the input files' names).
    public var title = "Geofence run"
    /// The map area's largest size in pixels (the legend panel comes beside it).
    public var maxWidth = 1000.0, maxHeight = 800.0
    /// The map area's smallest size in pixels.
    public var minWidth = 480.0, minHeight = 360.0
    /// Space kept around the data, in pixels.
    public var margin = 36.0
    /// Width of the legend panel, in pixels.
    public var legendWidth = 280.0

    /// Background of the map area and of the legend.
    public var background = "#f2efe9", panel = "#ffffff"
    /// Graticule lines and their labels.
    public var graticule = "#d9d4ca", graticuleText = "#8a8478"
    /// Region fill (drawn at `regionOpacity`), outline and label.
    public var regionFill = "#2b8cbe", regionOpacity = 0.22, regionStroke = "#08519c", regionLabel = "#08306b"
    /// Track colours: the first devices take these in turn.
    public var trackColours = ["#1f77b4", "#e377c2", "#17becf", "#8c564b", "#bcbd22",
                               "#393b79", "#7f7f7f", "#ad494a", "#637939", "#ff7f0e"]
    /// Marker fill of each event kind (outlined in white).
    public var enterColour = "#1a9641", exitColour = "#d7191c", dwellColour = "#fdae61", crossColour = "#7b3294"
    /// Radius of event markers, in pixels.
    public var markerRadius = 5.0

    /// The default style.
    public init() {}

    /// The marker colour of an event kind.
    public func colour(of kind: RegionEvent.Kind) -> String {
        switch kind {
        case .enter: enterColour
        case .exit: exitColour
        case .dwell: dwellColour
        case .cross: crossColour
        }
    }
}

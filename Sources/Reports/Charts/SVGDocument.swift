/// A standalone SVG 1.1 image: its size, an accessible title and description, and the
/// elements drawn in order.
///
/// The root carries `role="img"` and `aria-labelledby` pointing at its `<title>` and `<desc>`
/// (WAI-ARIA Graphics Module), so screen readers announce the chart's title and a one-sentence
/// summary of its data. Text stays real `<text>`, selectable and searchable.
public struct SVGDocument: Sendable, Equatable {
    /// Width in CSS pixels.
    public var width: Double
    /// Height in CSS pixels.
    public var height: Double
    /// The document title (the chart's title).
    public var title: String
    /// A one- or two-sentence account of what the chart shows, for assistive technology.
    public var summary: String
    /// The drawing, back to front.
    public var elements: [SVGElement] = []

    /// The font stack of every text element.
    public static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

    public init(width: Double, height: Double, title: String, summary: String) {
        self.width = width
        self.height = height
        self.title = title
        self.summary = summary
    }

    /// Appends an element on top of what is drawn so far.
    public mutating func append(_ element: SVGElement) {
        elements.append(element)
    }

    /// Appends elements on top of what is drawn so far.
    public mutating func append(contentsOf elements: [SVGElement]) {
        self.elements.append(contentsOf: elements)
    }

    /// The document as UTF-8 XML text with an XML declaration, ending in a line break.
    public var xml: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root(idPrefix: "chart").xml()
    }

    /// The `<svg>` root element; its `<title>` and `<desc>` have ids `<idPrefix>-title` and
    /// `<idPrefix>-desc`, so several charts inlined in one HTML page keep unique ids.
    public func root(idPrefix: String) -> SVGElement {
        SVGElement(
            "svg",
            [
                .init("xmlns", "http://www.w3.org/2000/svg"), .init("version", "1.1"),
                .init("width", width), .init("height", height),
                .init("viewBox", "0 0 \(SVGElement.number(width)) \(SVGElement.number(height))"),
                .init("role", "img"), .init("aria-labelledby", "\(idPrefix)-title \(idPrefix)-desc"),
                .init("font-family", Self.fontFamily),
            ],
            children: [
                SVGElement("title", [.init("id", "\(idPrefix)-title")], text: title),
                SVGElement("desc", [.init("id", "\(idPrefix)-desc")], text: summary),
                SVGElement("rect", [.init("width", "100%"), .init("height", "100%"), .init("fill", "#ffffff")]),
            ] + elements)
    }
}

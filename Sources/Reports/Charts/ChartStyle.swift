import Foundation

/// Colours, type sizes and text metrics shared by every chart.
public enum ChartStyle {
    /// Series colours: the Okabe–Ito palette, distinguishable with the common colour-vision
    /// deficiencies (Okabe & Ito, "Color Universal Design", 2008), minus its yellow, which is
    /// too light on white.
    public static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]

    /// The colour of series `index`, cycling through ``palette``.
    public static func color(_ index: Int) -> String {
        palette[((index % palette.count) + palette.count) % palette.count]
    }

    /// Dash patterns (SVG `stroke-dasharray`) that tell apart series sharing a colour: solid
    /// for the palette's first round, then dashed, dotted and dash-dotted.
    public static let dashPatterns: [String?] = [nil, "7 3", "2 2.5", "9 3 2 3"]

    /// The dash pattern of series `index`: the palette's colours cycle first, then the pattern
    /// changes, so ``palette``'s 7 colours × 4 patterns give 28 distinct line styles (the 27
    /// actions of UTD-MHAD) before a style repeats.
    public static func dash(_ index: Int) -> String? {
        let round = max(index, 0) / palette.count
        return dashPatterns[round % dashPatterns.count]
    }

    /// Titles and labels.
    public static let textColor = "#222222"
    /// Subtitles, tick labels and notes.
    public static let mutedTextColor = "#555555"
    /// Axis lines and tick marks.
    public static let axisColor = "#444444"
    /// Gridlines.
    public static let gridColor = "#e4e4e4"

    /// Font size of a chart's title, in pixels.
    public static let titleSize = 16.0
    /// Font size of axis titles and legend entries, in pixels.
    public static let labelSize = 12.0
    /// Font size of tick labels and cell values, in pixels.
    public static let tickSize = 11.0

    /// The approximate width of `text` in pixels: 0.6 em per character, about the mean advance
    /// of DejaVu Sans and Helvetica; used to make room for labels, never to place glyphs exactly.
    public static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    /// Stops of the sequential scale, light to dark (ColorBrewer "Blues", Harrower & Brewer 2003).
    private static let sequentialStops: [(Double, Double, Double)] = [
        (247, 251, 255), (198, 219, 239), (107, 174, 214), (33, 113, 181), (8, 48, 107),
    ]

    /// The colour of `fraction` (clamped to 0...1) on a white-to-dark-blue scale, as `#rrggbb`.
    public static func sequentialColor(_ fraction: Double) -> String {
        let t = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let position = t * Double(sequentialStops.count - 1)
        let index = min(Int(position), sequentialStops.count - 2)
        let local = position - Double(index)
        let (a, b) = (sequentialStops[index], sequentialStops[index + 1])
        let channels = [a.0 + (b.0 - a.0) * local, a.1 + (b.1 - a.1) * local, a.2 + (b.2 - a.2) * local]
        return "#" + channels.map { channel in
            let value = Int(channel.rounded())
            let hex = String(value, radix: 16)
            return value < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Text colour that stays readable on ``sequentialColor(_:)`` of `fraction`.
    public static func textColor(onSequential fraction: Double) -> String {
        fraction > 0.55 ? "#ffffff" : textColor
    }

    /// White or ``textColor``, whichever contrasts more with the `#rrggbb` colour `background`
    /// (WCAG 2.1 relative luminance and contrast ratio); ``textColor`` for anything else.
    public static func textColor(on background: String) -> String {
        guard let luminance = relativeLuminance(background), let text = relativeLuminance(textColor) else { return textColor }
        let contrastWithWhite = 1.05 / (luminance + 0.05)
        let contrastWithText = (luminance + 0.05) / (text + 0.05)
        return contrastWithWhite >= contrastWithText ? "#ffffff" : textColor
    }

    /// The relative luminance of a `#rrggbb` colour, 0 (black) to 1 (white), or nil for other
    /// text (WCAG 2.1, "relative luminance", sRGB channels linearized).
    static func relativeLuminance(_ color: String) -> Double? {
        let hex = Array(color.utf8)
        guard hex.count == 7, hex[0] == UInt8(ascii: "#") else { return nil }
        var linear: [Double] = []
        for offset in [1, 3, 5] {
            guard let value = UInt8(String(decoding: hex[offset..<offset + 2], as: UTF8.self), radix: 16) else { return nil }
            let srgb = Double(value) / 255
            linear.append(srgb <= 0.04045 ? srgb / 12.92 : pow((srgb + 0.055) / 1.055, 2.4))
        }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    /// A text element with the chart fonts.
    /// - Parameters:
    ///   - text: The characters (escaped when rendered).
    ///   - x: Anchor x in pixels.
    ///   - y: Baseline y in pixels.
    ///   - size: Font size in pixels.
    ///   - anchor: `start`, `middle` or `end`.
    ///   - color: Fill colour.
    ///   - bold: Whether the weight is bold.
    ///   - rotation: Degrees clockwise about the anchor, 0 for none.
    static func text(
        _ text: String, x: Double, y: Double, size: Double = labelSize, anchor: String = "start", color: String = textColor,
        bold: Bool = false, rotation: Double = 0
    ) -> SVGElement {
        var attributes: [SVGElement.Attribute] = [.init("x", x), .init("y", y), .init("font-size", size)]
        if anchor != "start" { attributes.append(.init("text-anchor", anchor)) }
        if bold { attributes.append(.init("font-weight", "bold")) }
        attributes.append(.init("fill", color))
        if rotation != 0 {
            attributes.append(.init("transform", "rotate(\(SVGElement.number(rotation)) \(SVGElement.number(x)) \(SVGElement.number(y)))"))
        }
        return SVGElement("text", attributes, text: text)
    }

    /// A straight line.
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double = 1, dash: String? = nil) -> SVGElement {
        var attributes: [SVGElement.Attribute] = [
            .init("x1", x1), .init("y1", y1), .init("x2", x2), .init("y2", y2), .init("stroke", color), .init("stroke-width", width),
        ]
        if let dash { attributes.append(.init("stroke-dasharray", dash)) }
        return SVGElement("line", attributes)
    }
}

/// One element of an SVG document: a name, attributes in a fixed order, children and text.
///
/// Rendering is deterministic: attributes keep the order they were given in, numbers are
/// printed with ``number(_:)`` (two decimals at most, no exponent), and every text and
/// attribute value is XML-escaped, so the same chart data always gives the same bytes.
public struct SVGElement: Sendable, Equatable {
    /// The element name (`rect`, `text`, `g`, ...).
    public var name: String
    /// Attributes as `(name, value)`, rendered in this order; values are escaped on rendering.
    public var attributes: [Attribute]
    /// Child elements, rendered after ``text``.
    public var children: [SVGElement]
    /// Character content (escaped on rendering).
    public var text: String?

    /// An attribute name and its unescaped value.
    public struct Attribute: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        /// A numeric attribute printed with ``SVGElement/number(_:)``.
        public init(_ name: String, _ value: Double) {
            self.init(name, SVGElement.number(value))
        }
    }

    public init(_ name: String, _ attributes: [Attribute] = [], text: String? = nil, children: [SVGElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The element with a `<title>` child first, which browsers show as a tooltip.
    public func withTooltip(_ tooltip: String?) -> SVGElement {
        guard let tooltip, !tooltip.isEmpty else { return self }
        var element = self
        element.children.insert(SVGElement("title", text: tooltip), at: 0)
        return element
    }

    /// The element as XML, indented by `depth` levels of two spaces, ending in a line break.
    public func xml(depth: Int = 0) -> String {
        let indent = String(repeating: "  ", count: depth)
        var line = indent + "<" + name
        for attribute in attributes {
            line += " \(attribute.name)=\"\(Self.escaped(attribute.value, inAttribute: true))\""
        }
        if text == nil && children.isEmpty { return line + "/>\n" }
        line += ">"
        if let text { line += Self.escaped(text, inAttribute: false) }
        if children.isEmpty { return line + "</\(name)>\n" }
        return line + "\n" + children.map { $0.xml(depth: depth + 1) }.joined() + indent + "</\(name)>\n"
    }

    /// `text` with XML's special characters replaced by entities: `&`, `<`, `>` always, `"`
    /// in attribute values. Control characters that XML 1.0 forbids become spaces
    /// (XML 1.0, section 2.2 "Characters").
    public static func escaped(_ text: String, inAttribute: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where inAttribute: result += "&quot;"
            case "\t", "\n", "\r":
                result += inAttribute ? "&#\(scalar.value);" : String(scalar)
            default:
                let forbidden = scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value)
                result.unicodeScalars.append(forbidden ? " " : scalar)
            }
        }
        return result
    }

    /// A coordinate or length as SVG text: rounded to two decimals, trailing zeros dropped
    /// (`12.5`, `40`, `-3.25`), never `-0` or an exponent (values are clamped to ±10⁹, a
    /// non-finite value prints as `0`).
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = NumberFormat.fixed(min(max(value, -1e9), 1e9), digits: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

/// A piece of an HTML page: an element, escaped text, or an inline SVG chart.
///
/// Every text and attribute value is escaped on rendering (``SVGElement/escaped(_:inAttribute:)``:
/// `&`, `<`, `>`, and `"` in attributes), so labels, paths and settings that come from
/// manifests and data files cannot inject markup. Nothing but the page's own style sheet and
/// script (``HTMLDocument``) is ever rendered unescaped.
public indirect enum HTMLNode: Sendable, Equatable {
    /// An element: name, attributes in order (values unescaped), children.
    case element(String, [SVGElement.Attribute], [HTMLNode])
    /// Character content.
    case text(String)
    /// An SVG chart drawn inline; `idPrefix` keeps its `<title>`/`<desc>` ids unique on the page.
    case svg(SVGDocument, idPrefix: String)

    /// Elements without content or end tag (HTML Living Standard, 13.1.2 "Elements", void elements).
    static let voidElements: Set<String> = ["br", "hr", "img", "meta", "link", "input", "col", "wbr"]

    /// Elements laid out within a line of text: rendered without line breaks around them.
    static let inlineElements: Set<String> = ["a", "strong", "em", "code", "span"]

    /// An element with only text inside.
    public static func element(_ name: String, _ attributes: [SVGElement.Attribute] = [], text: String) -> HTMLNode {
        .element(name, attributes, [.text(text)])
    }

    /// A link to `href` (relative to the page) showing `text`.
    public static func link(_ text: String, to href: String) -> HTMLNode {
        .element("a", [.init("href", href)], [.text(text)])
    }

    /// The node as HTML text.
    public var html: String {
        var output = ""
        render(into: &output)
        return output
    }

    func render(into output: inout String) {
        switch self {
        case .text(let text):
            output += SVGElement.escaped(text, inAttribute: false)
        case .svg(let document, let idPrefix):
            output += document.root(idPrefix: idPrefix).xml()
        case .element(let name, let attributes, let children):
            output += "<" + name
            for attribute in attributes {
                output += " \(attribute.name)=\"\(SVGElement.escaped(attribute.value, inAttribute: true))\""
            }
            output += ">"
            guard !Self.voidElements.contains(name) else { return }
            let block = children.contains { if case .element(let child, _, _) = $0 { return !Self.inlineElements.contains(child) } else { return false } }
            for child in children {
                if block, case .element(let child, _, _) = child, !Self.inlineElements.contains(child) { output += "\n" }
                child.render(into: &output)
            }
            output += (block ? "\n" : "") + "</\(name)>"
        }
    }
}

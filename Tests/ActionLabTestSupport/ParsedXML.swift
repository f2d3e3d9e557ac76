import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// What an XML parser sees in a document: element names, attribute values and text, and the
/// element tree.
public final class ParsedXML: NSObject, XMLParserDelegate {
    /// One element: its name, attributes, parent (an index into ``nodes``) and own text, trimmed.
    public struct Node: Sendable {
        public var name: String
        public var attributes: [String: String]
        public var parent: Int?
        public var text: String
    }

    public private(set) var elements: [String] = []
    public private(set) var attributeValues: [String] = []
    public private(set) var texts: [String] = []
    /// Every element in document order.
    public private(set) var nodes: [Node] = []
    private var current = ""
    private var open: [Int] = []

    /// Indices of the elements whose parent is `index`, in document order.
    public func children(of index: Int) -> [Int] {
        nodes.indices.filter { nodes[$0].parent == index }
    }

    /// Parses `xml`; fails the test with the parser's message if it is not well-formed.
    public static func parse(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedXML {
        let result = ParsedXML()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = result
        let ok = parser.parse()
        try #require(ok, "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")", sourceLocation: sourceLocation)
        return result
    }

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
        attributeValues += attributes.values
        nodes.append(Node(name: name, attributes: attributes, parent: open.last, text: ""))
        open.append(nodes.count - 1)
        current = ""
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        current += string
        if let index = open.last { nodes[index].text += string }
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let text = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { texts.append(text) }
        current = ""
        if let index = open.popLast() { nodes[index].text = nodes[index].text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

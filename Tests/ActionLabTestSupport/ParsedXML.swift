import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// What an XML parser sees in a document: element names, attribute values and text.
public final class ParsedXML: NSObject, XMLParserDelegate {
    public private(set) var elements: [String] = []
    public private(set) var attributeValues: [String] = []
    public private(set) var texts: [String] = []
    private var current = ""

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
        current = ""
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let text = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { texts.append(text) }
        current = ""
    }
}

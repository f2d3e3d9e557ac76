/// The layout of `actionlab`'s help texts: lines of at most ``width`` characters, a term (a usage
/// line, an option, a variable) two spaces in, its help from column ``helpColumn``.
enum HelpLayout {
    /// The longest line, in characters.
    static let width = 100
    /// Where help text starts in a row: two spaces, a term of up to 26 characters, a gap of three.
    static let helpColumn = 31

    /// `text` wrapped at spaces into lines of at most `width` characters, the first line
    /// starting with `firstPrefix` and the others with `indent` spaces. A word longer than a
    /// line gets a line of its own.
    static func wrap(_ text: String, firstPrefix: String = "", indent: Int, width: Int = width) -> [String] {
        wrap(units: text.split(separator: " ").map(String.init), firstPrefix: firstPrefix, indent: indent, width: width)
    }

    /// `units` (words, or usage parts such as `[--output DIR]` that must stay whole) joined by
    /// spaces into lines as ``wrap(_:firstPrefix:indent:width:)`` makes them.
    static func wrap(units: [String], firstPrefix: String = "", indent: Int, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = firstPrefix
        var lineHasUnit = false
        for unit in units {
            if lineHasUnit && line.count + 1 + unit.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasUnit = false
            }
            line += (lineHasUnit ? " " : "") + unit
            lineHasUnit = true
        }
        lines.append(line)
        return lines
    }

    /// A term and its help: the term's lines two spaces in, the help from ``helpColumn``, on the
    /// same line when the term is one line that leaves a gap of at least two spaces, otherwise
    /// below the term.
    static func row(term: [String], help: String) -> [String] {
        let lines = term.map { "  " + $0 }
        if lines.count == 1, let line = lines.first, line.count + 2 <= helpColumn {
            let padded = line + String(repeating: " ", count: helpColumn - line.count)
            return wrap(help, firstPrefix: padded, indent: helpColumn)
        }
        return lines + wrap(help, firstPrefix: String(repeating: " ", count: helpColumn), indent: helpColumn)
    }

    /// A one-line term and its help, as ``row(term:help:)`` lays them out.
    static func row(_ term: String, _ help: String) -> [String] {
        row(term: [term], help: help)
    }
}

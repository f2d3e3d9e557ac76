extension Table {
    /// A CSV text that does not parse as a table: where and why.
    public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
        /// 1-based line of the record where the problem is.
        public var line: Int
        /// What is wrong.
        public var message: String

        public var description: String { "line \(line): \(message)" }
    }

    /// Reads CSV text as written by ``csv``: the first record is the header, every other record
    /// must have as many cells.
    ///
    /// Follows RFC 4180: cells containing commas, quotes or line breaks are quoted, inner quotes
    /// doubled; `\n` and `\r\n` line ends are accepted; a final line end is optional. Blank lines
    /// are skipped.
    /// - Parameter csv: The text.
    /// - Returns: The table; `numericColumns` is empty (CSV has no alignment).
    /// - Throws: ``CSVError`` for an unterminated quote, text after a closing quote, a record with
    ///   the wrong number of cells, or no header.
    public static func parse(csv: String) throws -> Table {
        var records: [(line: Int, cells: [String])] = []
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var characters = Array(csv).makeIterator()
        func endRecord() {
            cells.append(cell)
            if !(cells.count == 1 && cells[0].isEmpty && !afterQuote) { records.append((recordLine, cells)) }
            cells = []
            cell = ""
            afterQuote = false
        }
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    cell.append(character)
                }
                continue
            }
            switch character {
            case "\"" where afterQuote:
                // A doubled quote inside a quoted cell.
                cell.append("\"")
                quoted = true
                afterQuote = false
            case "\"":
                guard cell.isEmpty else { throw CSVError(line: line, message: "a quote inside an unquoted cell") }
                quoted = true
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\n", "\r\n":
                endRecord()
                line += 1
                recordLine = line
            default:
                guard !afterQuote else { throw CSVError(line: line, message: "text after a closing quote") }
                cell.append(character)
            }
        }
        guard !quoted else { throw CSVError(line: recordLine, message: "a quoted cell is not closed") }
        if !cell.isEmpty || !cells.isEmpty || afterQuote { endRecord() }
        guard let header = records.first else { throw CSVError(line: 1, message: "no header line") }
        var table = Table(header: header.cells)
        for record in records.dropFirst() {
            guard record.cells.count == header.cells.count else {
                throw CSVError(
                    line: record.line,
                    message: "\(record.cells.count) cells where the header has \(header.cells.count)")
            }
            table.rows.append(record.cells)
        }
        return table
    }

    /// The index of the column named `name`, or nil.
    public func column(named name: String) -> Int? {
        header.firstIndex(of: name)
    }
}

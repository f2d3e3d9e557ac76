/// A table for an HTML page: header texts, rows of nodes (text or links), right-aligned
/// numeric columns, and whether the page's script may sort it by a clicked header.
public struct HTMLTable: Sendable, Equatable {
    /// Column headers.
    public var header: [String]
    /// Rows; each has `header.count` cells, each cell a list of nodes.
    public var rows: [[[HTMLNode]]]
    /// Columns right-aligned as numbers.
    public var numericColumns: Set<Int>
    /// Whether clicking a header sorts the rows (``HTMLDocument/sortScript``).
    public var sortable: Bool
    /// The table's `id` on the page, if any.
    public var id: String?

    public init(header: [String], rows: [[[HTMLNode]]] = [], numericColumns: Set<Int> = [], sortable: Bool = false, id: String? = nil) {
        self.header = header
        self.rows = rows
        self.numericColumns = numericColumns
        self.sortable = sortable
        self.id = id
    }

    /// The cells of a ``Table`` as text, with its numeric columns.
    public init(_ table: Table, sortable: Bool = false, id: String? = nil) {
        self.init(header: table.header, rows: table.rows.map { $0.map { [.text($0)] } },
                  numericColumns: table.numericColumns, sortable: sortable, id: id)
    }

    /// Adds a column at the end: its header and one cell per row, in row order.
    /// - Returns: nil when `cells` does not have one cell per row.
    public func appendingColumn(_ title: String, cells: [[HTMLNode]], numeric: Bool = false) -> HTMLTable? {
        guard cells.count == rows.count else { return nil }
        var table = self
        if numeric { table.numericColumns.insert(header.count) }
        table.header.append(title)
        table.rows = zip(rows, cells).map { $0 + [$1] }
        return table
    }

    /// The `<table>` element: `<thead>` with the headers, `<tbody>` with the rows.
    public var node: HTMLNode {
        func alignment(_ column: Int) -> [SVGElement.Attribute] {
            numericColumns.contains(column) ? [.init("class", "number")] : []
        }
        let head = HTMLNode.element("thead", [], [.element("tr", [], header.enumerated().map { column, title in
            .element("th", alignment(column) + [.init("scope", "col")], [.text(title)])
        })])
        let body = HTMLNode.element("tbody", [], rows.map { row in
            .element("tr", [], row.enumerated().map { column, cell in .element("td", alignment(column), cell) })
        })
        var attributes: [SVGElement.Attribute] = []
        if let id { attributes.append(.init("id", id)) }
        if sortable { attributes.append(.init("class", "sortable")) }
        return .element("table", attributes, [head, body])
    }
}

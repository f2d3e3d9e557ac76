/// A rectangular table of text cells that renders as CSV (RFC 4180) or as a GitHub-flavoured
/// Markdown table. Reports build every table through this one type.
public struct Table: Sendable, Equatable {
    /// Column headers.
    public var header: [String]
    /// Rows of cells; each row has `header.count` cells.
    public var rows: [[String]]
    /// Columns whose Markdown cells are right-aligned (numbers).
    public var numericColumns: Set<Int>

    public init(header: [String], rows: [[String]] = [], numericColumns: Set<Int> = []) {
        self.header = header
        self.rows = rows
        self.numericColumns = numericColumns
    }

    /// Appends a row.
    /// - Precondition: `cells.count == header.count`.
    public mutating func append(_ cells: [String]) {
        precondition(cells.count == header.count, "a row must have one cell per column")
        rows.append(cells)
    }

    /// The table as CSV: a header line, then one line per row, `\n` line ends; a cell containing
    /// a comma, quote or line break is quoted with inner quotes doubled (RFC 4180).
    public var csv: String {
        ([header] + rows).map { $0.map(Self.csvCell).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// The table in Markdown; `|` inside cells is escaped.
    public var markdown: String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        let rule = "|" + header.indices.map { numericColumns.contains($0) ? " ---: " : " --- " }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    private static func csvCell(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Number formatting shared by reports.
package enum NumberFormat {
    /// Full precision, shortest round-trip form, for CSV and JSON consumers.
    package static func exact(_ value: Double) -> String { "\(value)" }

    /// `digits` decimals (four by default) for reading in Markdown; no decimal point with 0 digits.
    package static func fixed(_ value: Double, digits: Int = 4) -> String {
        guard value.isFinite else { return "\(value)" }
        var scaled = (value * pow10(digits)).rounded() / pow10(digits)
        if scaled == 0 { scaled = 0 }  // no "-0.0000"
        let text = "\(scaled)"
        let parts = text.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? text
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        if fraction.contains("e") { return text }
        while fraction.count < digits { fraction += "0" }
        return digits > 0 ? "\(whole).\(fraction.prefix(digits))" : whole
    }

    /// `mean ± std` with four decimals; just the value when there is one (a sample standard
    /// deviation needs two).
    package static func meanStd(_ values: [Double]) -> String {
        let stats = Statistics(values)
        return values.count < 2 ? fixed(stats.mean) : "\(fixed(stats.mean)) ± \(fixed(stats.standardDeviation))"
    }

    private static func pow10(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { value, _ in value * 10 }
    }
}

/// Mean and sample standard deviation (divisor `n - 1`, 0 for a single value) of a list.
package struct Statistics {
    package let mean: Double
    package let standardDeviation: Double

    /// Sums deviations from the first value, so that equal values give exactly that value as
    /// mean and 0 as standard deviation (not 1e-16 from rounding the sum).
    package init(_ values: [Double]) {
        let count = Double(values.count)
        let shift = values.first ?? 0
        mean = values.isEmpty ? 0 : shift + values.reduce(0) { $0 + ($1 - shift) } / count
        let mean = self.mean
        standardDeviation = values.count < 2
            ? 0 : (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1)).squareRoot()
    }
}

import Foundation
import Training

/// A confusion matrix as a heatmap: rows true labels, columns predicted labels, the count in
/// each cell, the cell's colour its share of the row (so every class reads as a recall
/// profile whatever its support).
///
/// Colours run from white (0 % of the row) to dark blue (100 %), with a colour bar; counts are
/// drawn in white on dark cells. Each cell's tooltip reads "true a, predicted b: n of m
/// (p %)". Column labels are rotated when they are wider than a cell.
public struct Heatmap: Sendable {
    /// The title.
    public var title: String
    /// A second line under the title, or nil.
    public var subtitle: String?
    /// The matrix.
    public var matrix: ConfusionMatrix
    /// Title of the row axis.
    public var rowAxisLabel = "true label"
    /// Title of the column axis.
    public var columnAxisLabel = "predicted label"

    public init(title: String, subtitle: String? = nil, matrix: ConfusionMatrix) {
        self.title = title
        self.subtitle = subtitle
        self.matrix = matrix
    }

    /// The share of row `row`'s items in column `column`; 0 in an empty row.
    public func rowFraction(_ row: Int, _ column: Int) -> Double {
        let total = matrix.counts[row].reduce(0, +)
        return total > 0 ? Double(matrix.counts[row][column]) / Double(total) : 0
    }

    /// The chart as an SVG document.
    public var document: SVGDocument {
        let labels = matrix.labels
        let count = max(labels.count, 1)
        let cell = min(max(480 / Double(count), 28), 64)
        let widest = labels.map { ChartStyle.textWidth($0, size: ChartStyle.tickSize) }.max() ?? 0
        let rotate = widest > cell - 6
        let gridSize = cell * Double(count)
        let columnLabelHeight = rotate ? widest * sin(35 * Double.pi / 180) + 16 : 18
        // Row labels, grid, colour bar; centred when the titles make the canvas wider.
        let contentWidth = 24 + 10 + widest + 10 + gridSize + 24 + 12 + 44 + 22
        let width = max(
            contentWidth, ChartStyle.textWidth(title, size: ChartStyle.titleSize) + 32,
            ChartStyle.textWidth(subtitle ?? "", size: ChartStyle.labelSize) + 32)
        let left = (width - contentWidth) / 2
        let gridLeft = left + 24 + 10 + widest + 10
        let gridTop = subtitle == nil ? 44.0 : 62.0
        let scaleLeft = gridLeft + gridSize + 24
        let height = gridTop + gridSize + columnLabelHeight + 34

        var document = SVGDocument(width: width, height: height, title: title, summary: summary)
        document.append(ChartStyle.text(title, x: width / 2, y: 24, size: ChartStyle.titleSize, anchor: "middle", bold: true))
        if let subtitle {
            document.append(ChartStyle.text(subtitle, x: width / 2, y: 42, size: ChartStyle.labelSize, anchor: "middle", color: ChartStyle.mutedTextColor))
        }

        let valueSize = min(ChartStyle.labelSize, cell * 0.4)
        var cells: [SVGElement] = []
        for (row, trueLabel) in labels.enumerated() {
            let total = matrix.counts[row].reduce(0, +)
            for (column, predictedLabel) in labels.enumerated() {
                let fraction = rowFraction(row, column)
                let x = gridLeft + Double(column) * cell
                let y = gridTop + Double(row) * cell
                let n = matrix.counts[row][column]
                cells.append(SVGElement("g", children: [
                    SVGElement("rect", [
                        .init("x", x), .init("y", y), .init("width", cell), .init("height", cell),
                        .init("fill", ChartStyle.sequentialColor(fraction)), .init("stroke", "#ffffff"), .init("stroke-width", 1),
                    ]),
                    ChartStyle.text("\(n)", x: x + cell / 2, y: y + cell / 2 + valueSize * 0.35, size: valueSize, anchor: "middle",
                                    color: ChartStyle.textColor(onSequential: fraction), bold: row == column),
                ]).withTooltip("true \(trueLabel), predicted \(predictedLabel): \(n) of \(total) (\(NumberFormat.fixed(fraction * 100, digits: 1)) %)"))
            }
        }
        document.append(SVGElement("g", [.init("aria-label", "cells")], children: cells))

        var axes: [SVGElement] = []
        for (index, label) in labels.enumerated() {
            let center = Double(index) * cell + cell / 2
            axes.append(ChartStyle.text(label, x: gridLeft - 8, y: gridTop + center + 4, size: ChartStyle.tickSize, anchor: "end"))
            let x = gridLeft + center
            axes.append(rotate
                ? ChartStyle.text(label, x: x + 4, y: gridTop + gridSize + 14, size: ChartStyle.tickSize, anchor: "end", rotation: -35)
                : ChartStyle.text(label, x: x, y: gridTop + gridSize + 16, size: ChartStyle.tickSize, anchor: "middle"))
        }
        axes.append(ChartStyle.text(columnAxisLabel, x: gridLeft + gridSize / 2, y: height - 10, size: ChartStyle.labelSize, anchor: "middle"))
        axes.append(ChartStyle.text(rowAxisLabel, x: left + 18, y: gridTop + gridSize / 2, size: ChartStyle.labelSize, anchor: "middle", rotation: -90))
        document.append(SVGElement("g", [.init("aria-label", "axes")], children: axes))
        document.append(colorScale(left: scaleLeft, top: gridTop, height: gridSize))
        return document
    }

    /// The chart as SVG text.
    public var svg: String { document.xml }

    /// The colour bar: a vertical gradient with 0 %, 50 % and 100 % marks and its title.
    private func colorScale(left: Double, top: Double, height: Double) -> SVGElement {
        let stops = stride(from: 0.0, through: 1.0, by: 0.25).map { offset in
            SVGElement("stop", [.init("offset", offset), .init("stop-color", ChartStyle.sequentialColor(offset))])
        }
        let gradient = SVGElement(
            "linearGradient", [.init("id", "heatmap-scale"), .init("x1", 0), .init("y1", 1), .init("x2", 0), .init("y2", 0)],
            children: stops)
        var children = [
            SVGElement("defs", children: [gradient]),
            SVGElement("rect", [
                .init("x", left), .init("y", top), .init("width", 12), .init("height", height),
                .init("fill", "url(#heatmap-scale)"), .init("stroke", ChartStyle.axisColor), .init("stroke-width", 0.5),
            ]),
        ]
        for fraction in [0.0, 0.5, 1.0] {
            let y = top + height * (1 - fraction)
            children.append(ChartStyle.line(left + 12, y, left + 16, y, color: ChartStyle.axisColor))
            children.append(ChartStyle.text("\(Int(fraction * 100)) %", x: left + 18, y: y + 4, size: ChartStyle.tickSize, color: ChartStyle.mutedTextColor))
        }
        children.append(ChartStyle.text(
            "share of row", x: left + 64, y: top + height / 2, size: ChartStyle.tickSize, anchor: "middle",
            color: ChartStyle.mutedTextColor, rotation: -90))
        return SVGElement("g", [.init("aria-label", "colour scale: share of the true label's items")], children: children)
    }

    /// The accessible description: size, accuracy and the largest confusion.
    private var summary: String {
        var text = "Confusion matrix of \(matrix.labels.count) labels, rows true label, columns predicted label, "
            + "\(matrix.total) items, accuracy \(NumberFormat.fixed(matrix.accuracy))."
        var largest: (row: Int, column: Int, count: Int)?
        for row in matrix.labels.indices {
            for column in matrix.labels.indices where row != column && matrix.counts[row][column] > (largest?.count ?? 0) {
                largest = (row, column, matrix.counts[row][column])
            }
        }
        if let largest {
            text += " Largest confusion: true \(matrix.labels[largest.row]) predicted as \(matrix.labels[largest.column]) (\(largest.count))."
        } else {
            text += " No confusions."
        }
        return text
    }
}

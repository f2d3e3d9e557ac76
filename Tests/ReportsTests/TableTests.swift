import Foundation
import Reports
import Testing
import Training

@Suite struct TableTests {
    @Test func csvQuotesOnlyCellsThatNeedIt() {
        var table = Table(header: ["label", "count"])
        table.append(["plain", "1"])
        table.append(["with, comma", "2"])
        table.append(["say \"hi\"", "3"])
        #expect(table.csv == "label,count\nplain,1\n\"with, comma\",2\n\"say \"\"hi\"\"\",3\n")
    }

    @Test func markdownAlignsNumbersRightAndEscapesPipes() {
        var table = Table(header: ["name", "value"], numericColumns: [1])
        table.append(["a|b", "0.5"])
        #expect(table.markdown == "| name | value |\n| --- | ---: |\n| a\\|b | 0.5 |\n")
    }
}

@Suite struct CSVReadingTests {
    @Test func parsingInvertsWriting() throws {
        var table = Table(header: ["label", "note"])
        table.append(["plain", ""])
        table.append(["with, comma", "say \"hi\""])
        table.append(["line\nbreak", "x"])
        #expect(try Table.parse(csv: table.csv) == table)
        #expect(try Table.parse(csv: "a,b\r\n1,2").rows == [["1", "2"]])
    }

    @Test(arguments: ["a,b\n1\n", "a,b\n\"1,2\n", "a\n\"x\"y\n", ""])
    func malformedCSVIsAnError(text: String) {
        #expect(throws: Table.CSVError.self) { try Table.parse(csv: text) }
    }

    @Test func curvesAndConfusionReadBackFromTheirFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("actionlab-csv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var matrix = ConfusionMatrix(labels: ["a, b", "c"])
        matrix.record(trueIndex: 0, predictedIndex: 1)
        matrix.record(trueIndex: 1, predictedIndex: 1)
        let history = [
            EpochRecord(epoch: 1, trainLoss: 0.7, trainAccuracy: 0.5, validationLoss: nil, validationAccuracy: nil),
            EpochRecord(epoch: 2, trainLoss: 0.1 + 0.2, trainAccuracy: 1.0 / 3.0, validationLoss: 0.25, validationAccuracy: 0.75),
        ]
        let classification = ClassificationMetrics(confusion: matrix, loss: 0.5)
        try RunReport(seed: 1, history: history, metrics: ["test": SplitMetrics(window: classification, sequence: classification)])
            .write(to: folder)
        #expect(try RunReport.readHistory(from: folder.appendingPathComponent("curves.csv")) == history)
        #expect(try RunReport.readConfusion(from: folder.appendingPathComponent("confusion_test.csv")) == matrix)
        #expect(throws: ReportError.self) { try RunReport.readHistory(from: folder.appendingPathComponent("confusion_test.csv")) }
        #expect(throws: ReportError.self) { try RunReport.readConfusion(from: folder.appendingPathComponent("missing.csv")) }
    }
}

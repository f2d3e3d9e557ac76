import Experiment
import Testing

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

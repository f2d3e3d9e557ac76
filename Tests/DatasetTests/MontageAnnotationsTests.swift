import ActionLabTestSupport
import Dataset
import Foundation
import Testing

@Suite struct MontageAnnotationsTests {
    @Test("JSON annotations: missing start is 0, missing end is the end of the video, paths inside the folder")
    func json() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture(
            """
            [{"file_name": "a.mov", "label": "squat", "start_time": 1.5, "end_time": 4},
             {"file_name": "clips/b.mov", "label": "wave"}]
            """, named: "annotations.json", in: directory.url)
        let samples = try MontageAnnotations.samples(in: file)
        #expect(samples.map(\.label) == ["squat", "wave"])
        #expect(samples[0].start == 1.5 && samples[0].end == 4)
        #expect(samples[1].start == nil && samples[1].end == nil)
        #expect(samples[1].file.path.hasSuffix("/clips/b.mov"))
    }

    @Test("CSV annotations with empty times")
    func csv() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture("file_name,label,start_time,end_time\na.mov,squat,,2.5\nb.mov,wave,1,\n", named: "a.csv", in: directory.url)
        let samples = try MontageAnnotations.samples(in: file)
        #expect(samples.count == 2)
        #expect(samples[0].start == nil && samples[0].end == 2.5)
        #expect(samples[1].start == 1 && samples[1].end == nil)
    }

    @Test("A file name resolving outside the dataset folder is rejected, naming the JSON path", arguments: ["../x.mov", "/etc/passwd", "a/../../x.mov"])
    func outside(name: String) throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture("[{\"file_name\": \"\(name)\", \"label\": \"a\"}]", named: "data/annotations.json", in: directory.url)
        do {
            _ = try MontageAnnotations.samples(in: file)
            Issue.record("\(name) must be rejected")
        } catch let error as DatasetSourceError {
            #expect(error.location == "$[0].file_name")
            #expect(error.message.contains("outside the dataset folder"))
        }
    }

    @Test("An end before the start names the CSV line")
    func endBeforeStart() throws {
        let directory = try TemporaryDirectory()
        let file = try writeFixture("file_name,label,start_time,end_time\na.mov,squat,3,2\n", named: "a.csv", in: directory.url)
        #expect(throws: DatasetSourceError(
            file: file.path, location: "line 2, column end_time", message: "expected an end time after the start time 3.0 s, found 2.0 s")) {
            try MontageAnnotations.samples(in: file)
        }
    }
}

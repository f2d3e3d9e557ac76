import Extraction
import Foundation
import Testing

@Suite struct MediaFilesTests {
    @Test("Labeled files: the name without its extension, trailing number and separators", arguments: [
        ("squat.3.mov", "squat"), ("jumping_jacks-12.mp4", "jumping_jacks"), ("wave 2.mov", "wave"), ("bow.mov", "bow"),
        ("side.bend.1.avi", "side.bend"),
    ])
    func labelOfLabeledFile(name: String, label: String) {
        #expect(MediaFiles.label(ofLabeledFile: URL(fileURLWithPath: "/data/\(name)")) == label)
    }

    @Test func fileWithoutLabel() {
        #expect(MediaFiles.label(ofLabeledFile: URL(fileURLWithPath: "/data/12.mov")) == nil)
    }
}

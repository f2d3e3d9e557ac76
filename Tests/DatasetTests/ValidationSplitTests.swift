import Dataset
import Pose
import Testing

@Suite struct ValidationSplitTests {
    /// `recordings` recordings per label, each cut into `perRecording` sequences sharing a group.
    func dataset(labels: [String], recordings: Int, perRecording: Int) -> [LabeledSequence] {
        labels.flatMap { label in
            (0..<recordings).flatMap { recording in
                (0..<perRecording).map { part in
                    LabeledSequence(
                        id: "\(label)-\(recording)#\(part)", label: label, group: "\(label)-\(recording)",
                        sequence: PoseSequence(keypoints: [0], timestamps: [0], channelCount: 1, jointCount: 1, frameRate: 1))
                }
            }
        }
    }

    @Test func stratifiedByLabelAndGroupedByRecording() {
        let data = dataset(labels: ["a", "b", "c"], recordings: 10, perRecording: 3)
        let (train, validation) = ValidationSplit(fraction: 0.2, seed: 7).split(data)
        #expect(train.count + validation.count == data.count)
        for label in ["a", "b", "c"] {
            // 2 of each label's 10 recordings, all 3 parts of each.
            #expect(validation.filter { $0.label == label }.count == 6)
        }
        let trainGroups = Set(train.map(\.group))
        #expect(validation.allSatisfy { !trainGroups.contains($0.group) })
    }

    @Test func sameSeedSameSplitOtherSeedOtherSplit() {
        let data = dataset(labels: ["a", "b"], recordings: 20, perRecording: 1)
        let first = ValidationSplit(fraction: 0.25, seed: 1).split(data).validation.map(\.id)
        let again = ValidationSplit(fraction: 0.25, seed: 1).split(data).validation.map(\.id)
        let other = ValidationSplit(fraction: 0.25, seed: 2).split(data).validation.map(\.id)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func everyLabelKeepsTrainingData() {
        let data = dataset(labels: ["rare", "common"], recordings: 2, perRecording: 1)
            .filter { $0.label == "common" || $0.group == "rare-0" }
        let (train, validation) = ValidationSplit(fraction: 0.5, seed: 0).split(data)
        #expect(train.contains { $0.label == "rare" })
        #expect(validation.filter { $0.label == "common" }.count == 1)
    }
}

import Pose
import Testing

@Suite struct PersonSelectionTests {
    /// A person whose detected keypoints are `corners` (x, y), the rest undetected.
    static func person(_ corners: [(Float, Float)]) -> DetectedPerson {
        var keypoints = DetectedPerson.undetected.keypoints
        for (index, corner) in corners.enumerated() {
            keypoints[index] = Keypoint(x: corner.0, y: corner.1, confidence: 0.9)
        }
        return DetectedPerson(keypoints: keypoints)
    }

    @Test("The bounding box spans the detected keypoints only")
    func boundingBox() {
        let person = Self.person([(0.2, 0.1), (0.6, 0.5), (0.4, 0.3)])  // undetected joints sit at (0, 0)
        #expect(abs(person.boundingBoxArea - 0.16) < 1e-6)
        #expect(Self.person([(0.3, 0.3)]).boundingBoxArea == 0)
        #expect(DetectedPerson.undetected.boundingBoxArea == 0)
    }

    @Test("The person with the largest keypoint box is the most prominent, wherever it is in the list")
    func largestBoxWins() {
        let small = Self.person([(0.1, 0.1), (0.2, 0.3)])
        let large = Self.person([(0.5, 0.1), (0.9, 0.9)])
        let tiny = Self.person([(0.6, 0.6), (0.61, 0.62)])
        #expect(DetectedPerson.mostProminent(among: [small, large, tiny]) == large)
        #expect(DetectedPerson.mostProminent(among: [large, small]) == large)
        #expect(DetectedPerson.mostProminent(among: [tiny, small]) == small)
    }

    @Test("Ties go to the earlier person; a lone keypoint beats nobody")
    func ties() {
        let first = Self.person([(0.1, 0.1), (0.3, 0.3)])
        let second = Self.person([(0.5, 0.5), (0.7, 0.7)])
        #expect(DetectedPerson.mostProminent(among: [first, second]) == first)
        let lone = Self.person([(0.4, 0.4)])
        #expect(DetectedPerson.mostProminent(among: [.undetected, lone]) == lone)
    }

    @Test("No person, or nobody with a detected joint, gives an all-zero frame")
    func nobody() {
        #expect(DetectedPerson.mostProminent(among: []) == nil)
        #expect(DetectedPerson.mostProminent(among: [.undetected]) == nil)
        #expect(DetectedPerson.frameValues(ofMostProminentAmong: []) == Array(repeating: 0, count: 54))
    }

    @Test("Frame values are [3, 18]: all x, then all y, then all confidences")
    func frameLayout() {
        let person = Self.person([(0.25, 0.75)])
        let values = DetectedPerson.frameValues(ofMostProminentAmong: [person])
        #expect(values.count == 3 * SkeletonLayout.vision18.jointCount)
        #expect(values[0] == 0.25)
        #expect(values[18] == 0.75)
        #expect(values[36] == 0.9)
        #expect(values.enumerated().allSatisfy { [0, 18, 36].contains($0.offset) || $0.element == 0 })
    }
}

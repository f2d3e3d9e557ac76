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

/// Following one person through a clip when two are in view (issue 15, item 10), on synthetic
/// keypoint lists: two people of similar size whose boxes alternate in size from frame to frame.
@Suite struct PersonTrackerTests {
    /// A person of 18 detected joints spread over a box `width` × 0.6 centred at (`x`, 0.5).
    static func person(x: Float, width: Float) -> DetectedPerson {
        DetectedPerson(keypoints: (0..<18).map { joint in
            let u = Float(joint % 3) / 2 - 0.5, v = Float(joint / 3) / 5 - 0.5
            return Keypoint(x: x + u * width, y: 0.5 + v * 0.6, confidence: 0.9)
        })
    }

    @Test("With two people whose boxes alternate in size, the largest-box rule switches every frame; the tracker keeps one")
    func followsOnePerson() {
        // Left person walks right slowly; right person stands. Their widths alternate 0.20/0.22.
        let frames = (0..<10).map { frame -> [DetectedPerson] in
            let wide: Float = 0.22, narrow: Float = 0.20
            let left = Self.person(x: 0.25 + 0.01 * Float(frame), width: frame % 2 == 0 ? wide : narrow)
            let right = Self.person(x: 0.75, width: frame % 2 == 0 ? narrow : wide)
            return frame % 3 == 0 ? [right, left] : [left, right]  // the estimator's order changes too
        }
        let largest = frames.map { DetectedPerson.mostProminent(among: $0)?.keypoints[0].x ?? 0 }
        #expect(Set(largest.map { $0 < 0.5 }).count == 2, "the per-frame rule switches people")
        var tracker = PersonTracker()
        let followed = frames.enumerated().map { tracker.select(among: $1, at: Double($0) / 10)?.keypoints[0].x ?? 0 }
        #expect(followed.allSatisfy { $0 < 0.5 }, "the left person (largest in frame 0) is followed: \(followed)")
        #expect(tracker.losses.isEmpty)
    }

    @Test("A frame without anyone keeps the followed person; when they leave, the loss is recorded and the other is followed")
    func gapsAndLosses() throws {
        let left = Self.person(x: 0.3, width: 0.3), right = Self.person(x: 0.75, width: 0.2)
        var tracker = PersonTracker()
        #expect(tracker.select(among: [right, left], at: 0) == left)
        #expect(tracker.select(among: [], at: 0.1) == nil)
        #expect(tracker.select(among: [.undetected], at: 0.2) == nil)
        #expect(tracker.select(among: [right, left], at: 0.3) == left, "matched again after the gap")
        #expect(tracker.losses.isEmpty)
        #expect(tracker.select(among: [right], at: 0.4) == right, "the left person left the frame")
        let loss = try #require(tracker.losses.first)
        #expect(loss.timestamp == 0.4 && loss.nearestDistance > PersonTracker.defaultMaximumDistance)
        #expect(tracker.select(among: [right, left], at: 0.5) == right, "the right person is followed from then on")
        #expect(tracker.losses.count == 1)
    }

    @Test("The distance is the mean over joints detected in both, infinite when none is shared")
    func distance() {
        let a = PersonSelectionTests.person([(0.1, 0.1), (0.5, 0.5)])
        let b = PersonSelectionTests.person([(0.4, 0.5), (0.5, 0.5), (0.9, 0.9)])
        #expect(abs(PersonTracker.distance(a, b) - 0.25) < 1e-6)  // (0.5 + 0) / 2
        #expect(PersonTracker.distance(a, .undetected) == .infinity)
    }
}

import Testing

@testable import Prediction

@Suite struct EventCounterTests {
    func segment(_ label: String, _ start: Double, _ end: Double) -> ActionSegment {
        ActionSegment(label: label, start: start, end: end, predictions: 0...1, meanConfidence: 0.9)
    }

    @Test func everySegmentEntryIsOneEventWithoutARefractoryTime() throws {
        let segments = [segment("jump", 0, 1), segment("jump", 1.1, 2), segment("squat", 2, 3)]
        let result = try EventCounter(refractoryTime: 0).count(segments)
        #expect(result.events.map(\.label) == ["jump", "jump", "squat"])
        #expect(result.events.map(\.time) == [0, 1.1, 2])
        #expect(result.events.map(\.segment) == segments)
        #expect(result.counts == ["jump": 2, "squat": 1])
        #expect(result.suppressed.isEmpty)
    }

    @Test func aSegmentStartingWithinTheRefractoryTimeOfTheLastCountedOneIsNotCountedAgain() throws {
        let segments = [
            segment("jump", 0, 1),
            segment("jump", 1.5, 2),  // 0.5 s after the counted one ended: the same jump
            segment("jump", 2.2, 3),  // 1.2 s after the last counted end (1): a new jump
            segment("jump", 4, 5),  // exactly the refractory time after 3: counted
        ]
        let result = try EventCounter(refractoryTime: 1).count(segments)
        #expect(result.events.map(\.time) == [0, 2.2, 4])
        #expect(result.suppressed == [segments[1]])
        #expect(result.count(of: "jump") == 3)
        #expect(result.count(of: "squat") == 0)
    }

    @Test func otherLabelsNeitherResetNorExtendTheRefractoryTime() throws {
        let segments = [segment("jump", 0, 1), segment("squat", 1, 1.3), segment("jump", 1.3, 2), segment("squat", 1.8, 3)]
        let result = try EventCounter(refractoryTime: 1).count(segments)
        #expect(result.events.map(\.segment) == [segments[0], segments[1]])
        #expect(result.suppressed == [segments[2], segments[3]])
        #expect(result.counts == ["jump": 1, "squat": 1])
    }

    @Test func segmentsAreTakenInTimeOrder() throws {
        let segments = [segment("jump", 5, 6), segment("jump", 0, 1), segment("jump", 1.2, 2)]
        let result = try EventCounter(refractoryTime: 0.5).count(segments)
        #expect(result.events.map(\.time) == [0, 5])
        #expect(result.suppressed.map(\.start) == [1.2])
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func aRefractoryTimeThatIsNotAFiniteNonNegativeNumberIsAnError(time: Double) {
        #expect(throws: PostprocessingError.self) { try EventCounter(refractoryTime: time) }
    }

    /// The whole chain on a classifier's stream: K jumps with flicker inside them and idle between
    /// them are counted K times after smoothing, hysteresis and segmenting, and more often without.
    @Test(arguments: [1, 3, 6])
    func jumpsInAFlickeringStreamAreCountedOnceEach(jumps: Int) throws {
        let classes = ["jump", "idle"]
        var generator = TestGenerator(seed: UInt64(jumps))
        var probabilities: [[Float]] = []
        for _ in 0..<jumps {
            for _ in 0..<6 { probabilities.append([0.1, 0.9]) }
            for step in 0..<9 {
                // A jump with one dropout below the threshold and one wrong vote in it.
                let jump: Float = step == 3 ? 0.45 : step == 6 ? 0.3 : Float.random(in: 0.7..<0.95, using: &generator)
                probabilities.append([jump, 1 - jump])
            }
        }
        for _ in 0..<6 { probabilities.append([0.1, 0.9]) }
        let settings = PostprocessingFixtures.settings()
        let predictions = PostprocessingFixtures.stream(probabilities, classLabels: classes)
        let smoothed = try MovingAverageSmoother(window: 3).smoothed(predictions, classLabels: classes, settings: settings)
        let labels = try HysteresisFilter(holdCount: 3).filtered(smoothed)
        let builder = try SegmentBuilder(classLabels: classes, frameRate: 30, settings: settings)
        let counter = try EventCounter(refractoryTime: 0.5)
        #expect(counter.count(try builder.segments(of: smoothed, labels: labels)).count(of: "jump") == jumps)
        #expect(counter.count(try builder.segments(of: predictions)).count(of: "jump") > jumps)
    }
}

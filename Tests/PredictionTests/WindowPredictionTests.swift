import Testing

@testable import Prediction

@Suite struct WindowPredictionTests {
    func prediction(status: WindowPrediction.Status) -> WindowPrediction {
        WindowPrediction(
            index: 3, startFrame: 30, startTime: 1, endTime: 3, probabilities: [0.3, 0.7], labelIndex: 1, label: "squat",
            confidence: 0.7, status: status, poseFraction: 1, paddedFrames: 0)
    }

    @Test func onlyAnOKPredictionReportsItsLabel() {
        #expect(prediction(status: .ok).acceptedLabel == "squat")
        #expect(prediction(status: .lowConfidence).acceptedLabel == nil)
        #expect(prediction(status: .noPerson).acceptedLabel == nil)
    }

    @Test func aPredictionIsDrawnAtItsWindowsCentre() {
        #expect(prediction(status: .ok).centreTime == 2)
    }
}

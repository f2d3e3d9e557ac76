import Pose
import Testing

/// Which of MediaPipe's standard-error lines are chatter (issue 15, item 14): the lines are those
/// libmediapipe.so 1.2.3 printed while extracting two short videos.
@Suite struct MediaPipeLogFilterTests {
    static let chatter = [
        "WARNING: [model_load.cc:402] Sparsity tensors may not yet be fully supported.",
        "INFO: [environment.cc:36] Creating LiteRT environment with options",
        "INFO: [accelerator_registry.cc:54] RegisterAccelerator: ptr=0x7f0590004ab0, name=CpuAccelerator",
        "INFO: Created TensorFlow Lite XNNPACK delegate for CPU.",
        "WARNING: Logging before InitGoogle() is written to STDERR",
        "W0000 00:00:1796190566.422933   23628 inference_runner_litert.cc:1433] Input tensor memory is not aligned according to "
            + "LiteRt's memory alignment requirements. Reallocating memory and copying data.",
        "W0000 00:00:1796190566.950468   23646 landmark_projection_calculator.cc:81] Using NORM_RECT without IMAGE_DIMENSIONS is "
            + "only supported for the square ROI. Provide IMAGE_DIMENSIONS or use PROJECTION_MATRIX.",
        "I0000 00:00:1796190566.422933   23628 gl_context.cc:357] GL version: 3.2",
        "",
    ]
    static let kept = [
        "ERROR: The model is not a valid Flatbuffer buffer",
        "E0000 00:00:1796190566.422933   23628 calculator_graph.cc:887] INTERNAL: CalculatorGraph::Run() failed",
        "F0000 00:00:1796190566.422933   23628 check failed",
        "W0000 00:00:1796190566.950468   23646 some_calculator.cc:81] a warning not seen before",
        "[   0.3s] FAILED [1/2] clip.mp4: pose estimation failed",
        "INFO without a colon is not LiteRT's",
    ]

    @Test("Known chatter is recognized", arguments: chatter)
    func chatterIsDropped(line: String) {
        #expect(MediaPipeLogFilter.isChatter(line))
    }

    @Test("Errors, unknown warnings and ActionLab's own lines are kept", arguments: kept)
    func othersAreKept(line: String) {
        #expect(!MediaPipeLogFilter.isChatter(line))
    }

    @Test("filtered keeps the other lines in order, each with its line end")
    func filteredKeepsOrder() {
        let text = (Self.chatter.prefix(3) + [Self.kept[0]] + Self.chatter.suffix(3) + [Self.kept[1]]).joined(separator: "\n") + "\n"
        #expect(MediaPipeLogFilter.filtered(text) == Self.kept[0] + "\n" + Self.kept[1] + "\n")
        #expect(MediaPipeLogFilter.filtered("no line end") == "no line end\n")
        #expect(MediaPipeLogFilter.filtered("") == "")
    }
}

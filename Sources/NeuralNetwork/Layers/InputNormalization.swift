/// The in-model normalization of a keypoint window, chosen by the kind of skeleton: per-frame
/// centring and scaling of image pose (``KeypointNormalization``), or per-window centring on the
/// hip and scaling by the spine of a 3-D skeleton (``SkeletonNormalization``).
///
/// Either is the first layer of a model, has no parameters, and is exported with it, so an
/// exported model takes raw keypoints. Input and output `[N, C·J, T]`.
public enum InputNormalization: Codable, Hashable, Sendable {
    /// Image pose: x, y centred on the neck and scaled by the mean joint radius, per frame.
    case imagePose(KeypointNormalization.Configuration)
    /// A 3-D skeleton in metres: centred on the hip of the first frame, scaled by the spine length.
    case skeleton3D(SkeletonNormalization.Configuration)

    /// Channels per joint, `C`.
    public var channelCount: Int {
        switch self {
        case .imagePose(let configuration): configuration.channelCount
        case .skeleton3D(let configuration): configuration.channelCount
        }
    }

    /// Joints per frame, `J`.
    public var jointCount: Int {
        switch self {
        case .imagePose(let configuration): configuration.jointCount
        case .skeleton3D(let configuration): configuration.jointCount
        }
    }

    /// Problems that make the configuration unusable, empty when it is valid.
    public var problems: [String] {
        switch self {
        case .imagePose(let configuration): configuration.problems
        case .skeleton3D(let configuration): configuration.problems
        }
    }

    /// ``problems`` plus a check that the layout fits a model's `inputChannels` (`C·J` values
    /// per frame); the models share it.
    public func problems(forInputChannels inputChannels: Int) -> [String] {
        var problems = self.problems
        if channelCount * jointCount != inputChannels {
            problems.append("the input normalization covers \(channelCount)·\(jointCount) values per frame, not inputChannels \(inputChannels)")
        }
        return problems
    }

    /// The layer; the configuration must have no ``problems``.
    public func makeLayer() -> any Layer {
        switch self {
        case .imagePose(let configuration): KeypointNormalization(configuration: configuration)
        case .skeleton3D(let configuration): SkeletonNormalization(configuration: configuration)
        }
    }

    /// The problems of a graph network's input layers on `channelCount` channels of
    /// `jointCount` joints: each configuration's own, and a layout that differs from the network's.
    public static func problems(
        _ normalization: InputNormalization?, stream: KeypointStreamLayer.Configuration?, channelCount: Int, jointCount: Int
    ) -> [String] {
        var problems = stream?.problems(forInputChannels: channelCount * jointCount) ?? []
        if let normalization {
            problems += normalization.problems
            if normalization.channelCount != channelCount || normalization.jointCount != jointCount {
                problems.append("keypointNormalization is for \(normalization.channelCount) channels and "
                    + "\(normalization.jointCount) joints, the network for \(channelCount) and \(jointCount)")
            }
        }
        return problems
    }

    /// The first entries of a model's layer list: the normalization, named
    /// `keypointNormalization`, then the stream, named `inputStream` (the names in ONNX graphs;
    /// neither has a tensor in the state dictionary). Nil entries are left out.
    ///
    /// - Parameters:
    ///   - normalization: The in-model normalization, or nil.
    ///   - stream: The bone or motion stream, or nil for the joints; must have no problems.
    public static func layers(
        _ normalization: InputNormalization?, stream: KeypointStreamLayer.Configuration? = nil
    ) -> [(name: String, layer: any Layer)] {
        (normalization.map { [("keypointNormalization", $0.makeLayer())] } ?? [])
            + (stream.map { [("inputStream", KeypointStreamLayer(configuration: $0))] } ?? [])
    }
}

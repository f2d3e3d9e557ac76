import Randomness

/// The layers a PYSKL graph classifier puts around its blocks: the input layers and `data_bn`
/// before them, the pooling and the linear classifier after them.
///
/// Input `[N, C·V, T]` — the trainer's layout, feature `c·V + v` — and output logits
/// `[N, classCount]`:
///
/// ```
/// keypointNormalization InputNormalization on [N, C·V, T]  (optional: centre and scale the keypoints)
/// inputStream         KeypointStreamLayer on [N, C·V, T]   (optional: bones or motion instead of joints)
/// inputNormalization  BatchNormalization(C·V) on [N, C·V, T]   (PYSKL's data_bn, data_bn_type 'VC')
///                     [N, C·V, T] → [N, C, V, T] → [N, C, T, V]
/// blocks              the network's blocks on [N, C, T, V] → [N, C_last, T_out, V]
/// pooling             mean over T and V → [N, C_last]
/// classifier          Linear(C_last → classCount)               (PYSKL's GCNHead fc_cls)
/// ```
///
/// ``STGCNPlusPlusNetwork`` and ``CTRGCNNetwork`` hold one and list its ``sublayers`` as their
/// own, so their state dictionaries keep the names above at the model's root. PyTorch mapping:
/// `backbone.data_bn.*` → `inputNormalization.*` with feature `v·C + c` there becoming `c·V + v`
/// here; `cls_head.fc_cls.*` → `classifier.*` (PYSKL's `GCNHead` for one person).
public final class GraphNetworkHead {
    /// Channels per joint, `C`.
    public let channelCount: Int
    /// Joints, `V`.
    public let jointCount: Int
    /// The keypoint normalization (`keypointNormalization`) and the stream (`inputStream`) on
    /// `[N, C·V, T]`, each when configured (``InputNormalization/layers(_:stream:)``).
    public let inputLayers: [(name: String, layer: any Layer)]
    /// PYSKL's `data_bn` on `[N, C·V, T]`.
    public let inputNormalization: BatchNormalization
    /// The blocks on `[N, C, T, V]`, named `0`, `1`, ….
    public let blocks: Sequential
    /// The mean over `T` and `V`, `[N, C, T, V] → [N, C]`.
    public let pooling = GlobalAveragePooling()
    /// `Linear(C_last → classCount)`.
    public let classifier: Linear

    /// Builds the head around blocks made by `makeBlocks`, drawing the blocks' initial weights from
    /// `generator` before the classifier's (state-dictionary order).
    ///
    /// - Parameters:
    ///   - channelCount: Channels per joint, `C`.
    ///   - jointCount: Joints, `V`.
    ///   - classCount: The number of classes.
    ///   - keypointNormalization: Centre and scale keypoints first, or nil.
    ///   - stream: The bone or motion stream to compute next, or nil for the joints.
    ///   - generator: The source of randomness for the initial weights.
    ///   - makeBlocks: Builds the blocks, `[N, C, T, V] → [N, C_last, T_out, V]`, and returns them
    ///     with `C_last`.
    /// - Throws: What `makeBlocks` throws.
    public init(
        channelCount: Int, jointCount: Int, classCount: Int, keypointNormalization: InputNormalization?,
        stream: KeypointStreamLayer.Configuration?, using generator: inout SeededGenerator,
        makeBlocks: (inout SeededGenerator) throws -> (blocks: [any Layer], outChannels: Int)
    ) throws {
        self.channelCount = channelCount
        self.jointCount = jointCount
        inputLayers = InputNormalization.layers(keypointNormalization, stream: stream)
        inputNormalization = BatchNormalization(channels: channelCount * jointCount)
        let (layers, width) = try makeBlocks(&generator)
        blocks = Sequential(layers)
        classifier = Linear(inputs: width, outputs: classCount, using: &generator)
    }

    /// The input layers, `inputNormalization`, `blocks` and `classifier`, in state-dictionary order.
    public var sublayers: [(name: String, layer: any Layer)] {
        inputLayers + [("inputNormalization", inputNormalization), ("blocks", blocks), ("classifier", classifier)]
    }

    /// Computes logits.
    ///
    /// - Parameters:
    ///   - x: Windows `[N, C·V, T]`, feature `c·V + v`; `T` at least 1.
    ///   - training: Whether to use batch statistics and dropout.
    /// - Returns: Logits `[N, classCount]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let centred = inputLayers.reduce(x) { $1.layer.forward($0, training: training) }
        let normalized = inputNormalization.forward(centred, training: training)
        let graphInput = normalized.jointsLast(channels: channelCount, joints: jointCount)
        let features = pooling.forward(blocks.forward(graphInput, training: training), training: training)
        return classifier.forward(features, training: training)
    }

    /// Back-propagates ∂loss/∂logits `[N, classCount]`, accumulating parameter gradients.
    ///
    /// - Returns: ∂loss/∂x, `[N, C·V, T]`.
    public func backward(_ gradLogits: Tensor) -> Tensor {
        let gradGraphInput = blocks.backward(pooling.backward(classifier.backward(gradLogits)))
        let gradNormalized = gradGraphInput.featuresFirst(channels: channelCount, joints: jointCount)
        let gradCentred = inputNormalization.backward(gradNormalized)
        return inputLayers.reversed().reduce(gradCentred) { $1.layer.backward($0) }
    }
}

private extension Tensor {
    /// The trainer's windows `[N, C·V, T]` (feature `c·V + v`) as a graph layer's `[N, C, T, V]`.
    func jointsLast(channels: Int, joints: Int) -> Tensor {
        let (batch, length) = (shape[0], shape[2])
        return swappingAxes(outer: batch * channels, joints, length, inner: 1, shape: [batch, channels, length, joints])
    }

    /// A graph layer's `[N, C, T, V]` as the trainer's `[N, C·V, T]`, the inverse of ``jointsLast(channels:joints:)``.
    func featuresFirst(channels: Int, joints: Int) -> Tensor {
        let (batch, length) = (shape[0], shape[2])
        return swappingAxes(outer: batch * channels, length, joints, inner: 1, shape: [batch, channels * joints, length])
    }
}

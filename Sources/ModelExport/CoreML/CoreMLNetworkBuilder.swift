import NeuralNetwork

/// Collects the layers of a Core ML neural network while a model describes itself.
///
/// Every layer writes one blob named like the layer; layer names are unique (a suffix is added
/// to a taken name), except for layers that carry state-dictionary tensors, which are named by
/// their exact path so that `scripts/check-coreml.py` can match their weights with `weights.h5`.
public struct CoreMLNetworkBuilder: Sendable {
    /// The layers added so far, in topological order.
    public private(set) var layers: [CoreML.NeuralNetworkLayer] = []
    private var usedNames: Set<String>

    /// Creates an empty network whose inputs already own their names.
    ///
    /// - Parameter inputNames: The model's input names, e.g. `["poses"]`.
    public init(inputNames: [String]) {
        usedNames = Set(inputNames)
    }

    /// Adds a layer whose output blob has the layer's name.
    ///
    /// - Parameters:
    ///   - name: The preferred name; made unique with a suffix when taken.
    ///   - inputs: The blobs it reads.
    ///   - parameters: The layer.
    /// - Returns: The output blob's name.
    @discardableResult
    public mutating func addLayer(_ name: String, inputs: [String], _ parameters: CoreML.LayerParameters) -> String {
        var unique = name
        var suffix = 2
        while usedNames.contains(unique) {
            unique = "\(name)_\(suffix)"
            suffix += 1
        }
        usedNames.insert(unique)
        layers.append(CoreML.NeuralNetworkLayer(name: unique, inputs: inputs, outputs: [unique], parameters: parameters))
        return unique
    }

    /// Adds a `splitND` layer cutting `input` into `parts` equal blobs along `axis`, named
    /// `name.0`, `name.1`, ...
    ///
    /// - Returns: The output blobs in order.
    public mutating func addSplit(_ name: String, input: String, axis: Int, parts: Int) -> [String] {
        let layer = addLayer(name, inputs: [input], .splitND(axis: axis, parts: parts))
        let outputs = (0..<parts).map { "\(layer).\($0)" }
        usedNames.formUnion(outputs)
        layers[layers.count - 1].outputs = outputs
        return outputs
    }

    /// Adds a layer under exactly `name`, for layers that hold state-dictionary tensors.
    ///
    /// - Returns: `name`, the output blob.
    /// - Throws: ``ModelExportError/duplicateName(_:_:)`` if the name is taken.
    @discardableResult
    public mutating func addWeightedLayer(_ name: String, inputs: [String], _ parameters: CoreML.LayerParameters) throws -> String {
        guard !usedNames.contains(name) else { throw ModelExportError.duplicateName(.coreML, name) }
        return addLayer(name, inputs: inputs, parameters)
    }

    /// Appends named layers one after another, as ``Sequential`` runs them.
    ///
    /// - Parameters:
    ///   - layers: `(name, layer)` pairs in execution order.
    ///   - input: The blob the first layer reads.
    ///   - path: The state-dictionary path of the layers' parent (`""` at the model's root).
    /// - Returns: The last layer's output blob.
    /// - Throws: ``ModelExportError/unsupportedLayer(_:path:type:)`` for a layer that does not
    ///   conform to ``CoreMLLayerExportable``, and whatever the layers throw.
    public mutating func appendLayers(_ layers: [(name: String, layer: any Layer)], input: String, path: String) throws -> String {
        var blob = input
        for (name, layer) in layers {
            let layerPath = path.isEmpty ? name : path + "." + name
            guard let exportable = layer as? any CoreMLLayerExportable else {
                throw ModelExportError.unsupportedLayer(.coreML, path: layerPath, type: String(describing: type(of: layer)))
            }
            blob = try exportable.appendCoreMLLayers(input: blob, path: layerPath, to: &self)
        }
        return blob
    }

    /// Appends the rearrangement of one window `[T, C, J]` into the Core ML form of the trainer's
    /// layout, `[1, C·J, T, 1]` (feature `c·J + j`): `reshapeStatic [1, T, C·J, 1]` (row-major)
    /// and `transpose` with axes `[0, 2, 1, 3]`.
    ///
    /// - Returns: The blob name of `[1, C·J, T, 1]`.
    public mutating func appendChannelsFirstWindow(poses: String, window: KeypointWindowShape) -> String {
        let features = window.channelCount * window.jointCount
        let frames = addLayer("frames", inputs: [poses], .reshapeStatic(targetShape: [1, window.windowSize, features, 1]))
        return addLayer("channelsFirst", inputs: [frames], .transpose(axes: [0, 2, 1, 3]))
    }
}

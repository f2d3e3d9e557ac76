import NeuralNetwork
import Randomness
import _BenchmarkSupport

/// Per-layer training time of an ST-GCN network (`training-benchmark --layers R`): the rows of
/// `scripts/bench-training --layers`' per-layer table, measured the way
/// `scripts/bench-training-torch.py --layers` measures PyTorch's st-gcn `Model`.
///
/// Each layer of each block runs in isolation on the input it gets in a real training-mode
/// forward pass of the network: `R` times a timed `forward(_:training: true)` and a timed
/// `backward(_:)` of a fixed random output gradient (so the layer computes its input and parameter
/// gradients, as in a step). Times are summed by kind over the blocks, then divided by `R`: seconds
/// per training step of one batch. What the table leaves out (the input batch normalization, the
/// axis swap, pooling, the classifier, the loss and the optimizer step, and whatever isolation
/// changes in cache use) is the difference to the whole step's time.
struct LayerProfile {
    /// The kinds, in the order of the table.
    static let kinds = ["graph convolution", "temporal convolution", "residual convolution", "batch normalization", "ReLU", "residual sum"]

    /// Seconds per step, forward and backward, by kind.
    private(set) var forward: [String: Double] = [:]
    private(set) var backward: [String: Double] = [:]

    /// Profiles `network`'s blocks on random block inputs of `batch` windows of `frames` frames.
    /// - Throws: ``BenchmarkUsageError`` when a block is not an ST-GCN block (`--layers` covers
    ///   `stgcn` and `stgcn-small`).
    init(network: SpatialTemporalGraphConvolutionalNetwork, batch: Int, frames: Int, repeats: Int) throws {
        let configuration = network.configuration
        var generator = SeededGenerator(seed: 0, purpose: "benchmark-layers")
        func random(_ shape: [Int]) -> Tensor {
            Tensor(shape: shape, values: (0..<shape.reduce(1, *)).map { _ in generator.nextUniform() * 2 - 1 })
        }
        var x = random([batch, configuration.channelCount, frames, configuration.graph.jointCount])
        for (_, layer) in network.blocks.layers {
            guard let block = layer as? SpatialTemporalGraphBlock else {
                throw BenchmarkUsageError(description: "--layers profiles ST-GCN blocks (stgcn, stgcn-small), found \(type(of: layer))")
            }
            let graphOutput = time(block.graphConvolution, kind: "graph convolution", on: x, repeats: repeats, random: random)
            var y = graphOutput
            for (_, layer) in block.temporal.layers { y = time(layer, kind: Self.kind(of: layer), on: y, repeats: repeats, random: random) }
            switch block.residual {
            case .none: break
            case .identity: y = sum(y, x, repeats: repeats)
            case .projection:
                var projected = x
                for (_, layer) in block.residualProjection?.layers ?? [] {
                    projected = time(layer, kind: Self.kind(of: layer), on: projected, repeats: repeats, random: random)
                }
                y = sum(y, projected, repeats: repeats)
            }
            x = time(ReLU(), kind: "ReLU", on: y, repeats: repeats, random: random)
        }
    }

    private static func kind(of layer: any Layer) -> String {
        switch layer {
        case let convolution as TemporalConvolution: convolution.kernelSize > 1 ? "temporal convolution" : "residual convolution"
        case is BatchNormalization: "batch normalization"
        case is ReLU: "ReLU"
        default: "\(type(of: layer))"
        }
    }

    /// Times `repeats` forward and backward passes of `layer` on `input`; returns the output.
    private mutating func time(_ layer: any Layer, kind: String, on input: Tensor, repeats: Int, random: ([Int]) -> Tensor) -> Tensor {
        var output = layer.forward(input, training: true)  // warm-up, and the output's shape
        let gradient = random(output.shape)
        _ = layer.backward(gradient)
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            let start = clock.now
            output = layer.forward(input, training: true)
            let middle = clock.now
            _ = layer.backward(gradient)
            let end = clock.now
            forward[kind, default: 0] += Self.seconds(middle - start) / Double(repeats)
            backward[kind, default: 0] += Self.seconds(end - middle) / Double(repeats)
        }
        return output
    }

    /// Times the block's residual sum; its backward (adding the output gradient to the graph
    /// convolution's input gradient, ``SpatialTemporalGraphBlock/backward(_:)``) is the same sum.
    private mutating func sum(_ a: Tensor, _ b: Tensor, repeats: Int) -> Tensor {
        let clock = ContinuousClock()
        var accumulator = a
        accumulator.add(b, scaledBy: 0)  // makes its storage its own (copy on write) before timing
        for _ in 0..<repeats {
            let start = clock.now
            accumulator.add(b)
            let seconds = Self.seconds(clock.now - start)
            forward["residual sum", default: 0] += seconds / Double(repeats)
            backward["residual sum", default: 0] += seconds / Double(repeats)
        }
        var result = a
        result.add(b)
        return result
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// `{kind: {"forward": s, "backward": s}}` for the JSON report.
    var json: [String: Any] {
        Dictionary(uniqueKeysWithValues: Self.kinds.compactMap { kind in
            forward[kind].map { (kind, ["forward": $0, "backward": backward[kind] ?? 0]) }
        })
    }
}

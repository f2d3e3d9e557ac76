/// Named layers applied side by side to the same input, their outputs concatenated along the
/// channel axis.
///
/// `y = concat(branch₁(x), …, branchₙ(x))` along axis 1 of `[N, C, ...]`, PyTorch's
/// `torch.cat(outputs, dim=1)`: a multi-branch block such as ST-GCN++'s multi-scale temporal
/// convolution (pyskl's `mstcn`, `pyskl/models/gcns/utils/tcn.py`: branches of kernel 3 with
/// dilations 1 and 2, a max-pooling branch and a 1×1 branch; Duan et al., "PYSKL: Towards Good
/// Practices for Skeleton Action Recognition", ACM MM 2022) or an Inception module.
///
/// Every branch reads the input `[N, C_in, ...]`; branch `i` gives `[N, C_i, ...]`, the branches
/// agreeing on every extent but the channels, and the output is `[N, ΣC_i, ...]` with the first
/// branch's channels first. Outputs that differ outside axis 1 are a programming error, stopped by
/// a `precondition` that names the branches.
///
/// The names are path components of the state dictionary, as in ``Sequential``: branches named
/// `"0"`, `"1"`, … inside a `Branches` called `"branches"` give pyskl's
/// `branches.0.0.weight`-style names.
public final class Branches: Layer {
    /// The branches with their names, in the order of their channels in the output.
    public let branches: [(name: String, layer: any Layer)]
    /// The channels of each branch's output in the last forward call.
    private var channelCounts: [Int] = []
    /// The shape of the last forward call's output.
    private var outputShape: [Int] = []

    /// Creates a concatenation of named branches.
    ///
    /// - Parameter branches: At least one `(name, layer)` pair, in the order of their channels in
    ///   the output; names must be unique, non-empty and contain no `"."`.
    public init(_ branches: [(name: String, layer: any Layer)]) {
        let names = branches.map(\.name)
        precondition(!branches.isEmpty, "Branches needs at least one branch")
        precondition(Set(names).count == names.count, "Branches: duplicate branch names \(names)")
        precondition(names.allSatisfy { !$0.isEmpty && !$0.contains(".") },
                     "Branches: branch names must be non-empty and contain no '.', got \(names)")
        self.branches = branches
    }

    /// Creates a concatenation whose branches are named by their positions, `"0"`, `"1"`, ….
    public convenience init(_ branches: [any Layer]) {
        self.init(branches.enumerated().map { (name: String($0.offset), layer: $0.element) })
    }

    public var sublayers: [(name: String, layer: any Layer)] { branches }

    /// Applies every branch to `x`, in order, and concatenates their outputs along axis 1.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, ...]`, the shape every branch expects.
    ///   - training: Passed to every branch.
    /// - Returns: `[N, ΣC_i, ...]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        let outputs = branches.map { $0.layer.forward(x, training: training) }
        let first = outputs[0].shape
        for (branch, output) in zip(branches, outputs) {
            precondition(output.rank >= 2 && output.rank == first.count && output.shape[0] == first[0]
                         && output.shape.dropFirst(2) == first.dropFirst(2),
                         "Branches: branch '\(branch.name)' gives \(output.shape), which differs from branch '\(branches[0].name)''s \(first) outside axis 1")
        }
        channelCounts = outputs.map { $0.shape[1] }
        let y = Tensor.concatenatingChannels(outputs)
        outputShape = y.shape
        return y
    }

    /// Splits the gradient by each branch's channels, back-propagates each part through its
    /// branch, and sums the branches' input gradients in branch order.
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, ΣC_i, ...]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, ...]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        precondition(gradOutput.shape == outputShape, "Branches.backward: gradient shape \(gradOutput.shape), output \(outputShape)")
        let parts = gradOutput.splittingChannels(channelCounts)
        var gradInput = branches[0].layer.backward(parts[0])
        for (branch, part) in zip(branches, parts).dropFirst() {
            gradInput.add(branch.layer.backward(part))
        }
        return gradInput
    }
}

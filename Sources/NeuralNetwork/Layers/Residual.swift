/// A residual connection: the sum of a body and a shortcut applied to the same input.
///
/// `y = body(x) + shortcut(x)`, the shortcut being the identity (`shortcut(x) = x`) or a layer
/// such as a 1×1 ``TemporalConvolution`` followed by ``BatchNormalization`` where the body
/// changes the channels or the stride (He et al., "Deep Residual Learning for Image
/// Recognition", CVPR 2016, eq. 1 and 2; st-gcn's `st_gcn.residual`, `net/st_gcn.py`). An
/// activation after the sum (ResNet's and st-gcn's final ReLU) is a separate layer, e.g.
/// `Sequential([("unit", residual), ("relu", ReLU())])`.
///
/// Both paths read the input `[N, C_in, ...]` and must give outputs of the same shape
/// `[N, C_out, ...]`; the shapes are those of the body (an identity shortcut needs the body to
/// keep the input's shape). A mismatch is a programming error, stopped by a `precondition` that
/// names both shapes.
///
/// The body and the shortcut are the layer's children under the names given, so the state
/// dictionary holds `body.*` and `shortcut.*` by default, or, for instance, `residual.convolution.weight`
/// when the shortcut is a ``Sequential`` of `convolution` and `batchNorm` named `"residual"`
/// (st-gcn's names). An identity shortcut has no tensors and no child.
public final class Residual: Layer {
    /// The main path with its name in the state dictionary.
    public let body: (name: String, layer: any Layer)
    /// The shortcut with its name, or `nil` for the identity.
    public let shortcut: (name: String, layer: any Layer)?

    /// Creates a residual connection.
    ///
    /// - Parameters:
    ///   - body: The main path, `[N, C_in, ...] → [N, C_out, ...]`.
    ///   - bodyName: The body's name in the state dictionary; non-empty, without `"."`.
    ///   - shortcut: The layer on the shortcut path with the body's output shape, or `nil` for the
    ///     identity (which needs the body to keep the input's shape).
    ///   - shortcutName: The shortcut's name in the state dictionary; non-empty, without `"."`,
    ///     different from `bodyName`. Unused for the identity.
    public init(body: any Layer, bodyName: String = "body", shortcut: (any Layer)? = nil, shortcutName: String = "shortcut") {
        var names = [bodyName]
        if shortcut != nil { names.append(shortcutName) }
        precondition(names.allSatisfy { !$0.isEmpty && !$0.contains(".") },
                     "Residual: child names must be non-empty and contain no '.', got \(names)")
        precondition(Set(names).count == names.count, "Residual: body and shortcut share the name '\(bodyName)'")
        self.body = (bodyName, body)
        self.shortcut = shortcut.map { (shortcutName, $0) }
    }

    public var sublayers: [(name: String, layer: any Layer)] {
        [body] + (shortcut.map { [$0] } ?? [])
    }

    /// Applies the body, then the shortcut, and adds the shortcut's output to the body's.
    ///
    /// - Parameters:
    ///   - x: Input `[N, C_in, ...]`, the shape the body expects.
    ///   - training: Passed to both paths.
    /// - Returns: `body(x) + shortcut(x)`, `[N, C_out, ...]`.
    public func forward(_ x: Tensor, training: Bool) -> Tensor {
        var y = body.layer.forward(x, training: training)
        let skip = shortcut?.layer.forward(x, training: training) ?? x
        precondition(y.shape == skip.shape,
                     "Residual: body '\(body.name)' gives \(y.shape) but the shortcut '\(shortcut?.name ?? "identity")' gives \(skip.shape)")
        y.add(skip)
        return y
    }

    /// Back-propagates the same gradient through both paths and adds their input gradients
    /// (the body's first, then the shortcut's).
    ///
    /// - Parameter gradOutput: ∂loss/∂y, `[N, C_out, ...]`.
    /// - Returns: ∂loss/∂x, `[N, C_in, ...]`.
    public func backward(_ gradOutput: Tensor) -> Tensor {
        var gradInput = body.layer.backward(gradOutput)
        gradInput.add(shortcut?.layer.backward(gradOutput) ?? gradOutput)
        return gradInput
    }
}

extension BatchNormalization {
    /// Evaluation-mode batch normalization as a per-channel affine map `y = scale · x + shift`.
    ///
    /// `scale = γ / √(σ² + ε)` and `shift = β − μ · scale` with the running statistics `μ`, `σ²`
    /// (Ioffe & Szegedy, ICML 2015, §3.1: at inference the transform is linear and "can be
    /// composed with the scaling by γ and shift by β"). Folding it into the preceding
    /// convolution, `W' = scale · W` and `b' = scale · b + shift` per output channel, is what
    /// onnxruntime's `ConvBNFusion` does. Computed in `Double`.
    ///
    /// - Returns: `scale` and `shift`, `[C]` each.
    public func evaluationAffineMap() -> (scale: [Double], shift: [Double]) {
        let (gamma, beta) = (weight.value.values, bias.value.values)
        let (mean, variance) = (runningMean.value.values, runningVariance.value.values)
        var scale = [Double](repeating: 0, count: channels)
        var shift = [Double](repeating: 0, count: channels)
        for c in 0..<channels {
            scale[c] = Double(gamma[c]) / (Double(variance[c]) + Double(epsilon)).squareRoot()
            shift[c] = Double(beta[c]) - Double(mean[c]) * scale[c]
        }
        return (scale, shift)
    }
}

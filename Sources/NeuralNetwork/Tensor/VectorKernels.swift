/// Element-wise loops over raw float buffers written with `SIMD8<Float>`, so that they compile to
/// vector instructions without branches whatever the data (a `x > 0 ? g : 0` loop over random
/// signs otherwise compiles to a mispredicted branch per element).
///
/// Every function handles any `count` (a scalar tail after the last full vector). Sums use eight
/// lanes in a fixed order, so a result depends only on the inputs.
enum VectorKernels {
    typealias Vector = SIMD8<Float>
    static let width = Vector.scalarCount

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>, _ index: Int) -> Vector {
        UnsafeRawPointer(pointer + index).loadUnaligned(as: Vector.self)
    }

    @inline(__always)
    private static func store(_ value: Vector, _ pointer: UnsafeMutablePointer<Float>, _ index: Int) {
        UnsafeMutableRawPointer(pointer + index).storeBytes(of: value, as: Vector.self)
    }

    /// Whether every `x[i]` is finite (neither NaN nor ±infinity): `0 · x[i]` is 0 for a finite
    /// value and NaN otherwise, summed without a branch per element.
    static func allFinite(_ x: UnsafePointer<Float>, count: Int) -> Bool {
        var i = 0
        var sum = Vector()
        while i + width <= count {
            sum += 0 * load(x, i)
            i += width
        }
        var tail: Float = 0
        while i < count {
            tail += 0 * x[i]
            i += 1
        }
        return (sum.sum() + tail).isFinite
    }

    /// `y[i] = max(x[i], 0)` (0 for NaN, as `x > 0 ? x : 0`).
    static func relu(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + width <= count {
            let v = load(x, i)
            store(v.replacing(with: 0, where: .!(v .> 0)), y, i)
            i += width
        }
        while i < count {
            y[i] = x[i] > 0 ? x[i] : 0
            i += 1
        }
    }

    /// `dx[i] = x[i] > 0 ? g[i] : 0`: ReLU's backward pass.
    static func reluGradient(
        input x: UnsafePointer<Float>, gradOutput g: UnsafePointer<Float>, into dx: UnsafeMutablePointer<Float>, count: Int
    ) {
        var i = 0
        while i + width <= count {
            store(load(g, i).replacing(with: 0, where: .!(load(x, i) .> 0)), dx, i)
            i += width
        }
        while i < count {
            dx[i] = x[i] > 0 ? g[i] : 0
            i += 1
        }
    }

    /// `y[i] += scale · x[i]`.
    static func add(_ x: UnsafePointer<Float>, scaledBy scale: Float = 1, to y: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        let factor = Vector(repeating: scale)
        while i + width <= count {
            store(load(y, i) + factor * load(x, i), y, i)
            i += width
        }
        while i < count {
            y[i] += scale * x[i]
            i += 1
        }
    }

    /// `y[i] += value`.
    static func add(constant value: Float, to y: UnsafeMutablePointer<Float>, count: Int) {
        let constant = Vector(repeating: value)
        var i = 0
        while i + width <= count {
            store(load(y, i) + constant, y, i)
            i += width
        }
        while i < count {
            y[i] += value
            i += 1
        }
    }

    /// `Σ x[i]`.
    static func sum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = Vector.zero
        var i = 0
        while i + width <= count {
            lanes += load(x, i)
            i += width
        }
        var total = lanes.sum()
        while i < count {
            total += x[i]
            i += 1
        }
        return total
    }

    /// `Σ (x[i] − mean)²`.
    static func sumOfSquaredDeviations(_ x: UnsafePointer<Float>, from mean: Float, count: Int) -> Float {
        var lanes = Vector.zero
        let centre = Vector(repeating: mean)
        var i = 0
        while i + width <= count {
            let deviation = load(x, i) - centre
            lanes += deviation * deviation
            i += width
        }
        var total = lanes.sum()
        while i < count {
            let deviation = x[i] - mean
            total += deviation * deviation
            i += 1
        }
        return total
    }

    /// `Σ a[i] · b[i]`.
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = Vector.zero
        var i = 0
        while i + width <= count {
            lanes += load(a, i) * load(b, i)
            i += width
        }
        var total = lanes.sum()
        while i < count {
            total += a[i] * b[i]
            i += 1
        }
        return total
    }

    /// `Σ a[i] · b[i]` with products and sum in `Double`, in index order (for a scalar gradient
    /// summed over many terms of either sign, such as CTR-GCN's `∂α`).
    static func dotInDouble(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Double {
        var total: Double = 0
        for i in 0..<count { total += Double(a[i]) * Double(b[i]) }
        return total
    }

    /// Batch normalization's forward map of one run of a channel:
    /// `x̂[i] = (x[i] − mean) · inverseStandardDeviation`, `y[i] = γ · x̂[i] + β`.
    static func normalize(
        _ x: UnsafePointer<Float>, mean: Float, inverseStandardDeviation: Float, gamma: Float, beta: Float,
        normalized xHat: UnsafeMutablePointer<Float>, output y: UnsafeMutablePointer<Float>, count: Int
    ) {
        let (mu, scale) = (Vector(repeating: mean), Vector(repeating: inverseStandardDeviation))
        let (g, b) = (Vector(repeating: gamma), Vector(repeating: beta))
        var i = 0
        while i + width <= count {
            let normal = (load(x, i) - mu) * scale
            store(normal, xHat, i)
            store(g * normal + b, y, i)
            i += width
        }
        while i < count {
            let normal = (x[i] - mean) * inverseStandardDeviation
            xHat[i] = normal
            y[i] = gamma * normal + beta
            i += 1
        }
    }

    /// Batch normalization's backward map of one run of a channel with batch statistics:
    /// `dx[i] = scale · (g[i] − meanGrad − x̂[i] · meanGradNormalized)`.
    static func normalizationGradient(
        gradOutput g: UnsafePointer<Float>, normalized xHat: UnsafePointer<Float>,
        scale: Float, meanGrad: Float, meanGradNormalized: Float, into dx: UnsafeMutablePointer<Float>, count: Int
    ) {
        let (s, m, mn) = (Vector(repeating: scale), Vector(repeating: meanGrad), Vector(repeating: meanGradNormalized))
        var i = 0
        while i + width <= count {
            store(s * (load(g, i) - m - load(xHat, i) * mn), dx, i)
            i += width
        }
        while i < count {
            dx[i] = scale * (g[i] - meanGrad - xHat[i] * meanGradNormalized)
            i += 1
        }
    }

    /// `y[i] = scale · x[i]`.
    static func scale(_ x: UnsafePointer<Float>, by scale: Float, into y: UnsafeMutablePointer<Float>, count: Int) {
        let factor = Vector(repeating: scale)
        var i = 0
        while i + width <= count {
            store(factor * load(x, i), y, i)
            i += width
        }
        while i < count {
            y[i] = scale * x[i]
            i += 1
        }
    }
}

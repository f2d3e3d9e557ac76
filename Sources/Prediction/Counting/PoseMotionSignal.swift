import Pose

/// The one-dimensional motion signal of a stretch of pose frames: the projection of the
/// centred joint coordinates on their first principal component.
///
/// Steps, for frames `[T, C, J]`:
/// 1. Coordinate channels are the layout's channels other than `confidence`.
/// 2. When the layout marks undetected joints with zeros, a joint is missing in a frame whose
///    channels are all 0. A joint missing in more than half of the frames is dropped; other
///    gaps are filled by linear interpolation in time (held constant before the first and
///    after the last detection).
/// 3. For a body layout (image pose or 3-D skeleton), every frame's coordinates are taken
///    relative to the mean of its joints, so the body's translation (walking across the image,
///    camera drift, a hop) does not become the signal.
/// 4. Each coordinate is centred on its mean over time, giving `X` of shape `[T, D]`.
/// 5. The first principal component `u` of `X` (the top eigenvector of `XᵀX / T`) is found by
///    power iteration, started from the covariance column of the coordinate with the largest
///    variance; its sign makes its largest-magnitude entry positive. The signal is `X u`.
///
/// For a body layout the body's size is the root mean square distance of the kept joints from
/// their mean position, over all frames (in the layout's units, like the signal).
struct PoseMotionSignal {
    /// The signal, `[T]`, in the layout's coordinate units.
    var values: [Double]
    /// The body's size, for body layouts; nil for others (sensor channels have no body).
    var bodySize: Double?

    /// The signal of `frames` of `sequence` (nil when no joint is detected often enough or
    /// nothing moves).
    init?(sequence: PoseSequence, layout: SkeletonLayout, frames: Range<Int>) {
        let frameCount = frames.count
        guard frameCount >= 1 else { return nil }
        let coordinateChannels = layout.channels.indices.filter { layout.channels[$0] != "confidence" }
        guard !coordinateChannels.isEmpty else { return nil }
        let jointCount = sequence.jointCount

        // [D][T] columns of kept joints' coordinates, gaps filled.
        var columns: [[Double]] = []
        var keptJoints = 0
        for joint in 0..<jointCount {
            let detected = frames.map { frame in
                !layout.marksUndetectedJointsWithZeros || (0..<sequence.channelCount).contains { sequence[frame, $0, joint] != 0 }
            }
            let detections = detected.indices.filter { detected[$0] }
            guard detections.count * 2 >= frameCount, !detections.isEmpty else { continue }
            keptJoints += 1
            for channel in coordinateChannels {
                let raw = frames.map { Double(sequence[$0, channel, joint]) }
                columns.append(Self.filled(raw, detections: detections))
            }
        }
        guard keptJoints >= 1 else { return nil }

        bodySize = nil
        if layout.isImagePose || layout.isSkeleton3D {
            var squaredDistances = 0.0
            let channelsPerJoint = coordinateChannels.count
            for time in 0..<frameCount {
                for channel in 0..<channelsPerJoint {
                    var sum = 0.0
                    for joint in 0..<keptJoints { sum += columns[joint * channelsPerJoint + channel][time] }
                    let mean = sum / Double(keptJoints)
                    for joint in 0..<keptJoints {
                        columns[joint * channelsPerJoint + channel][time] -= mean
                        squaredDistances += columns[joint * channelsPerJoint + channel][time] * columns[joint * channelsPerJoint + channel][time]
                    }
                }
            }
            bodySize = (squaredDistances / Double(keptJoints * frameCount)).squareRoot()
        }
        for column in columns.indices {
            let mean = columns[column].reduce(0, +) / Double(frameCount)
            for time in 0..<frameCount { columns[column][time] -= mean }
        }
        guard let component = Self.firstPrincipalComponent(columns) else { return nil }
        values = (0..<frameCount).map { time in
            var projection = 0.0
            for column in columns.indices { projection += columns[column][time] * component[column] }
            return projection
        }
    }

    /// `raw` with the values at frames other than `detections` (sorted, not empty) interpolated linearly.
    static func filled(_ raw: [Double], detections: [Int]) -> [Double] {
        guard let first = detections.first, let last = detections.last else { return raw }
        var result = raw
        for time in 0..<first { result[time] = raw[first] }
        for time in (last + 1)..<max(last + 1, raw.count) { result[time] = raw[last] }
        for (left, right) in zip(detections, detections.dropFirst()) where right > left + 1 {
            for time in (left + 1)..<right {
                let weight = Double(time - left) / Double(right - left)
                result[time] = raw[left] + weight * (raw[right] - raw[left])
            }
        }
        return result
    }

    /// The unit top eigenvector of the covariance of centred `columns` (`[D][T]`), by power
    /// iteration; nil when every column is constant.
    static func firstPrincipalComponent(_ columns: [[Double]]) -> [Double]? {
        let dimension = columns.count
        var covariance = [Double](repeating: 0, count: dimension * dimension)
        for row in 0..<dimension {
            for column in row..<dimension {
                var sum = 0.0
                for (a, b) in zip(columns[row], columns[column]) { sum += a * b }
                covariance[row * dimension + column] = sum
                covariance[column * dimension + row] = sum
            }
        }
        guard let start = (0..<dimension).max(by: { covariance[$0 * dimension + $0] < covariance[$1 * dimension + $1] }),
            covariance[start * dimension + start] > 0
        else { return nil }

        func multiplied(_ vector: [Double]) -> [Double] {
            (0..<dimension).map { row in
                var sum = 0.0
                for column in 0..<dimension { sum += covariance[row * dimension + column] * vector[column] }
                return sum
            }
        }
        func normalized(_ vector: [Double]) -> [Double]? {
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? vector.map { $0 / norm } : nil
        }
        guard var vector = normalized((0..<dimension).map { covariance[$0 * dimension + start] }) else { return nil }
        var eigenvalue = 0.0
        for _ in 0..<1000 {
            let product = multiplied(vector)
            let next = product.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard let unit = normalized(product) else { break }
            vector = unit
            if abs(next - eigenvalue) <= 1e-13 * next { break }
            eigenvalue = next
        }
        if let largest = vector.indices.max(by: { abs(vector[$0]) < abs(vector[$1]) }), vector[largest] < 0 {
            vector = vector.map { -$0 }
        }
        return vector
    }
}

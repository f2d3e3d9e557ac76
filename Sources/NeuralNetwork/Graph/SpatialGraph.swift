/// The partitioned, normalized adjacency of a skeleton that a ``SpatialGraphConvolution`` aggregates over.
///
/// ``adjacency`` has shape `[K, V, V]` for `V` joints and `K` partitions; entry `[k, v, w]` is the
/// weight with which joint `v` contributes to joint `w` in partition `k` (st-gcn's `A`, used as
/// `einsum('nkctv,kvw->nctw', x, A)`).
///
/// ## Spatial-configuration partitioning (skeletons with edges)
///
/// Yan, Xiong & Lin, "Spatial Temporal Graph Convolutional Networks for Skeleton-Based Action
/// Recognition", AAAI 2018, §3.3 and st-gcn's `net/utils/graph.py` (`Graph`, strategy
/// `'spatial'`, `max_hop = 1`, `dilation = 1`), reproduced exactly:
///
/// 1. Hop distance `h(i, j)`: 0 on the diagonal, 1 for the ends of an edge, ∞ otherwise
///    (`get_hop_distance` truncated at `max_hop = 1`).
/// 2. `Â[j, i] = 1` where `h(j, i) ≤ 1`, normalized by column (`normalize_digraph`):
///    `Ā[j, i] = Â[j, i] / Σ_j' Â[j', i]`, so the weights arriving at each joint sum to 1.
/// 3. `K = 3` partitions of `Ā` by each joint's hop distance to the centre joint `c`:
///    `A[0]` the root (the diagonal); for `j ≠ i` neighbours, `A[1][j, i] = Ā[j, i]` when
///    `h(j, c) ≥ h(i, c)` (same distance, or `j` farther out: st-gcn's root + close) and
///    `A[2][j, i] = Ā[j, i]` when `h(j, c) < h(i, c)` (further).
///
/// As in st-gcn, the distance to the centre is also truncated at one hop: joints two or more hops
/// from the centre are all at distance ∞, so an edge between two of them lands in `A[1]`. This
/// differs from the paper's wording (distance to the skeleton's gravity centre) but is the
/// function st-gcn computes and its published models were trained with. For Vision-18 (the
/// OpenPose COCO-18 order) st-gcn's `openpose` layout uses the neck, joint 1, as centre.
///
/// ## Layouts without edges (sensor channels)
///
/// A layout with no edges (for example an accelerometer and a gyroscope) gets the identity
/// adjacency with `K = 1`: every joint is its own neighbourhood, so the graph convolution is a
/// 1×1 convolution shared by all joints, and joints meet only in the global pooling.
public struct SpatialGraph: Hashable, Sendable {
    /// The number of joints, `V`.
    public let jointCount: Int
    /// The centre joint of the spatial-configuration partitioning, or `nil` for the identity graph.
    public let center: Int?
    /// The partitioned normalized adjacency, `[K, V, V]`.
    public let adjacency: Tensor

    /// The number of partitions, `K`: 3 for a skeleton with edges, 1 for the identity graph.
    public var partitionCount: Int { adjacency.shape[0] }

    /// Builds the spatial-configuration graph of a skeleton, or the identity graph when it has no edges.
    ///
    /// - Parameters:
    ///   - jointCount: The number of joints `V`.
    ///   - edges: Undirected bones as pairs of joint indices in `0..<V`; duplicates are allowed.
    ///   - center: The centre joint (the neck, 1, for Vision-18); `nil` picks
    ///     ``centralJoint(jointCount:edges:)``. Ignored when `edges` is empty.
    public init(jointCount: Int, edges: [(Int, Int)], center: Int? = nil) {
        precondition(jointCount > 0, "SpatialGraph needs at least one joint")
        precondition(edges.allSatisfy { (0..<jointCount).contains($0.0) && (0..<jointCount).contains($0.1) },
                     "SpatialGraph: an edge names a joint outside 0..<\(jointCount)")
        self.jointCount = jointCount
        guard !edges.isEmpty else {
            self.center = nil
            var identity = Tensor(zeros: [1, jointCount, jointCount])
            for v in 0..<jointCount { identity[0, v, v] = 1 }
            adjacency = identity
            return
        }
        let center = center ?? Self.centralJoint(jointCount: jointCount, edges: edges)
        precondition((0..<jointCount).contains(center), "SpatialGraph: centre \(center) is not a joint")
        self.center = center
        adjacency = Self.spatialConfiguration(jointCount: jointCount, edges: edges, center: center)
    }

    /// The identity graph (`K = 1`), used for layouts without edges.
    ///
    /// - Parameter jointCount: The number of joints `V`.
    /// - Returns: A graph whose adjacency is `[1, V, V]` with ones on the diagonal.
    public static func identity(jointCount: Int) -> SpatialGraph {
        SpatialGraph(jointCount: jointCount, edges: [])
    }

    /// The joint with the smallest eccentricity (longest shortest path to another joint), a centre
    /// for skeletons whose layout names no neck.
    ///
    /// Joints that cannot reach every other joint rank after those that can; ties go to the
    /// lower index.
    ///
    /// - Parameters:
    ///   - jointCount: The number of joints `V`.
    ///   - edges: Undirected bones as pairs of joint indices.
    /// - Returns: The index of the central joint.
    public static func centralJoint(jointCount: Int, edges: [(Int, Int)]) -> Int {
        var neighbours = [[Int]](repeating: [], count: jointCount)
        for (a, b) in edges where a != b {
            neighbours[a].append(b)
            neighbours[b].append(a)
        }
        var best = (unreachable: Int.max, eccentricity: Int.max, joint: 0)
        for start in 0..<jointCount {
            var distance = [Int](repeating: -1, count: jointCount)
            distance[start] = 0
            var queue = [start]
            var head = 0
            while head < queue.count {
                let joint = queue[head]
                head += 1
                for next in neighbours[joint] where distance[next] < 0 {
                    distance[next] = distance[joint] + 1
                    queue.append(next)
                }
            }
            let score = (distance.filter { $0 < 0 }.count, distance.max() ?? 0)
            if score < (best.unreachable, best.eccentricity) { best = (score.0, score.1, start) }
        }
        return best.joint
    }

    /// st-gcn's `Graph.get_adjacency('spatial')` with `max_hop = 1`: `[3, V, V]`.
    private static func spatialConfiguration(jointCount: Int, edges: [(Int, Int)], center: Int) -> Tensor {
        let v = jointCount
        // Hop distance truncated at one hop (0, 1 or ∞), as get_hop_distance with max_hop = 1.
        var hop = [[Double]](repeating: [Double](repeating: .infinity, count: v), count: v)
        for i in 0..<v { hop[i][i] = 0 }
        for (a, b) in edges where a != b {
            hop[a][b] = 1
            hop[b][a] = 1
        }
        // normalize_digraph: divide each column of the 0/1 adjacency by its sum.
        var columnSums = [Double](repeating: 0, count: v)
        for j in 0..<v {
            for i in 0..<v where hop[j][i] <= 1 { columnSums[i] += 1 }
        }
        var adjacency = Tensor(zeros: [3, v, v])
        for i in 0..<v {
            for j in 0..<v where hop[j][i] <= 1 {
                let value = Float(1 / columnSums[i])
                let partition: Int
                if hop[j][i] == 0 {
                    partition = 0
                } else if hop[j][center] >= hop[i][center] {
                    partition = 1
                } else {
                    partition = 2
                }
                adjacency[partition, j, i] = value
            }
        }
        return adjacency
    }
}

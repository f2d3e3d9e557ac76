import NeuralNetwork
import Pose

extension SkeletonLayout {
    /// Where in-model normalization finds x, y, confidence and the centre joint (`neck`) of a
    /// body-pose layout, or nil for a layout without those channels.
    package var keypointNormalization: KeypointNormalization.Configuration? {
        guard let x = channels.firstIndex(of: "x"), let y = channels.firstIndex(of: "y"),
              let confidence = channels.firstIndex(of: "confidence") else { return nil }
        return KeypointNormalization.Configuration(
            channelCount: channelCount, jointCount: jointCount, xChannel: x, yChannel: y,
            confidenceChannel: confidence, centreJoint: joints.firstIndex(of: "neck"))
    }

    /// The graph a graph model uses for the layout.
    ///
    /// A layout with edges gets st-gcn's spatial-configuration graph (3 partitions) centred on
    /// its `neck` joint if it has one (joint 1 of Vision-18, as st-gcn's `openpose` layout), else
    /// on its `shoulderCenter` (Kinect v1's joint 1; st-gcn's `ntu-rgb+d` layout centres on the
    /// same joint, NTU's "spine shoulder"), else on its most central joint (smallest eccentricity). A layout without edges (sensor channels)
    /// gets the identity graph (1 partition): each joint is convolved on its own and joints meet
    /// in the global pooling.
    package var spatialGraph: SpatialGraph {
        SpatialGraph(
            jointCount: jointCount, edges: edges.map { ($0.first, $0.second) },
            center: joints.firstIndex(of: "neck") ?? joints.firstIndex(of: "shoulderCenter"))
    }
}

extension ModelInput {
    /// The in-model keypoint normalization the input asks for, or nil.
    package var keypointNormalization: KeypointNormalization.Configuration? {
        normalizeInput ? layout.keypointNormalization : nil
    }
}

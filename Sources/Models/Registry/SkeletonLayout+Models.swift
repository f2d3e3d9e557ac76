import NeuralNetwork
import Pose

extension SkeletonLayout {
    /// The in-model normalization of the layout, or nil for a layout that has none (sensor channels).
    ///
    /// - Body pose in image coordinates (x, y, confidence): ``KeypointNormalization``, centred
    ///   per frame on the `neck` joint when it has one, else on the detected joints' mean.
    /// - A 3-D skeleton (x, y, z and bones) with `hipCenter` and `shoulderCenter` joints (Kinect
    ///   v1): ``SkeletonNormalization``, centred on `hipCenter`, scaled by the spine
    ///   `hipCenter`–`shoulderCenter`.
    package var inputNormalization: InputNormalization? {
        if let x = channels.firstIndex(of: "x"), let y = channels.firstIndex(of: "y"),
           let confidence = channels.firstIndex(of: "confidence") {
            return .imagePose(KeypointNormalization.Configuration(
                channelCount: channelCount, jointCount: jointCount, xChannel: x, yChannel: y,
                confidenceChannel: confidence, centreJoint: joints.firstIndex(of: "neck")))
        }
        if isSkeleton3D, let hip = joints.firstIndex(of: "hipCenter"), let shoulders = joints.firstIndex(of: "shoulderCenter") {
            let coordinates = ["x", "y", "z"].compactMap { channels.firstIndex(of: $0) }
            return .skeleton3D(SkeletonNormalization.Configuration(
                channelCount: channelCount, jointCount: jointCount, coordinateChannels: coordinates,
                centreJoint: hip, spineBase: hip, spineTop: shoulders))
        }
        return nil
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
        SpatialGraph(jointCount: jointCount, edges: edges.map { ($0.first, $0.second) }, center: graphCentre)
    }

    /// The joint the graph is centred on and the bone tree grows from: `neck`, else
    /// `shoulderCenter`, else nil (the graph picks its most central joint).
    private var graphCentre: Int? {
        joints.firstIndex(of: "neck") ?? joints.firstIndex(of: "shoulderCenter")
    }

    /// The ``KeypointStreamLayer`` of `stream` on this layout: bones point from each joint toward
    /// the graph's centre joint (the breadth-first tree from it), and the `confidence` channel,
    /// if any, is averaged.
    package func streamConfiguration(_ stream: KeypointStream) -> KeypointStreamLayer.Configuration {
        let pairs = edges.map { ($0.first, $0.second) }
        let centre = graphCentre ?? SpatialGraph.centralJoint(jointCount: jointCount, edges: pairs)
        return KeypointStreamLayer.Configuration(
            stream: stream, channelCount: channelCount,
            parents: KeypointStreamLayer.Configuration.parents(jointCount: jointCount, edges: pairs, roots: [centre]),
            confidenceChannel: channels.firstIndex(of: "confidence"))
    }
}

extension ModelInput {
    /// The in-model keypoint normalization the input asks for, or nil.
    package var keypointNormalization: InputNormalization? {
        normalizeInput ? layout.inputNormalization : nil
    }

    /// The stream layer the input asks for, or nil for the joints.
    package var streamConfiguration: KeypointStreamLayer.Configuration? {
        stream == .joint ? nil : layout.streamConfiguration(stream)
    }
}

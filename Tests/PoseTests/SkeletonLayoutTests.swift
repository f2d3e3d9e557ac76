import Testing

@testable import Pose

@Suite struct SkeletonLayoutTests {
    @Test(arguments: SkeletonLayout.builtIn)
    func builtInLayoutsAreConsistent(_ layout: SkeletonLayout) {
        #expect(layout.problems().isEmpty)
        #expect(SkeletonLayout.builtIn(named: layout.name) == layout)
    }

    /// UTD-MHAD's `Skeleton_joint_order.txt` order, and Kinect's bone tree: 19 bones joining all
    /// 20 joints from `hipCenter`, each mirror pair one left and one right joint.
    @Test func kinectV1IsTheKinectBoneTree() {
        let layout = SkeletonLayout.kinectV1
        #expect(layout.jointCount == 20 && layout.channels == ["x", "y", "z"])
        #expect(layout.joints[3] == "hipCenter" && layout.joints[0] == "head" && layout.joints[19] == "rightFoot")
        #expect(layout.edges.count == 19)
        var reached: Set<Int> = [3]
        var frontier = [3]
        while let joint = frontier.popLast() {
            for edge in layout.edges where edge.first == joint || edge.second == joint {
                let other = edge.first == joint ? edge.second : edge.first
                if reached.insert(other).inserted { frontier.append(other) }
            }
        }
        #expect(reached.count == 20)
        for pair in layout.mirrorPairs {
            let (a, b) = (layout.joints[pair.first], layout.joints[pair.second])
            #expect(a.hasPrefix("left") && b == "right" + a.dropFirst("left".count))
        }
        #expect(layout.mirrorPairs.count == 8)
        #expect(layout.isSkeleton3D && layout.marksUndetectedJointsWithZeros && !layout.isImagePose)
        #expect(!SkeletonLayout.accelerometerGyroscope.isSkeleton3D)
        #expect(!SkeletonLayout.accelerometerGyroscope.marksUndetectedJointsWithZeros)
    }
}

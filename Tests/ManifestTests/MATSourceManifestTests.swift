import ActionLabTestSupport
import Foundation
import Manifest
import ManifestSchema
import Pose
import Testing

/// The `mat` source format's keys: `variable` (required) and `axes` (a permutation of T, C, J).
@Suite struct MATSourceManifestTests {
    static func manifest(_ source: String) -> String {
        "{ name: 'x', features: { layout: 'kinect-v1' }, dataset: { sources: [{ \(source) }] } }"
    }

    @Test func readsVariableAndAxes() throws {
        let fixture = try ManifestFixture()
        try Data("x".utf8).write(to: fixture.directory.file("data/a1_s1_t1_skeleton.mat"))
        let configuration = try fixture.parse(Self.manifest(
            "format: 'mat', path: 'data/a1_s1_t1_skeleton.mat', label: 'swipe', variable: 'd_skel', axes: ['J', 'C', 'T'], frameRate: 30"))
        let source = try #require(configuration.dataset.sources.first)
        #expect(source.format == .mat && !source.format.producesVision18)
        #expect(source.variable == "d_skel")
        #expect(source.axes == [.joint, .channel, .time])
        #expect(source.resolvedAxes == [.joint, .channel, .time])

        // A folder takes its labels from subfolders; axes default to ActionLab's [T, C, J].
        let folder = try fixture.parse(Self.manifest("format: 'mat', path: 'data/clips', variable: 'keypoints'"))
        #expect(folder.dataset.sources.first?.axes == nil)
        #expect(folder.dataset.sources.first?.resolvedAxes == [.time, .channel, .joint])
    }

    @Test func resolvedFormRoundTrips() throws {
        let fixture = try ManifestFixture()
        let source = DataSource(
            format: .mat, path: URL(fileURLWithPath: fixture.path("data/clips")), frameRate: 30, variable: "d_skel",
            axes: [.joint, .channel, .time])
        let data = try JSONEncoder().encode(source)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""axes":["J","C","T"]"#) && text.contains(#""variable":"d_skel""#))
        let decoded = try JSONDecoder().decode(DataSource.self, from: data)
        #expect(decoded.format == .mat)
        #expect(decoded.variable == "d_skel")
        #expect(decoded.axes == [.joint, .channel, .time])
        #expect(decoded.path.path == source.path.path)
        // Sources of other formats write neither key (resolved.json, and so trial ids, unchanged).
        let csv = String(decoding: try JSONEncoder().encode(DataSource(format: .csv, path: source.path, frameRate: 30)), as: UTF8.self)
        #expect(!csv.contains("axes") && !csv.contains("variable"))
    }

    @Test func matNeedsAVariable() throws {
        let fixture = try ManifestFixture()
        let issues = fixture.issues(Self.manifest("format: 'mat', path: 'data/clips'"))
        #expect(issues.map(\.path) == ["dataset.sources[0].variable"])
        #expect(issues.first?.message.contains("d_skel") == true)
    }

    @Test func aMATFileNeedsALabel() throws {
        let fixture = try ManifestFixture()
        try Data("x".utf8).write(to: fixture.directory.file("data/one.mat"))
        let issues = fixture.issues(Self.manifest("format: 'mat', path: 'data/one.mat', variable: 'd_skel'"))
        #expect(issues.map(\.path) == ["dataset.sources[0].label"])
    }

    @Test(arguments: [
        ("variable: 'd_skel'", "dataset.sources[0].variable"),
        ("axes: ['J', 'C', 'T']", "dataset.sources[0].axes"),
    ])
    func otherFormatsRejectMATKeys(key: String, path: String) throws {
        let fixture = try ManifestFixture()
        let issues = fixture.issues(Self.manifest("format: 'csv', path: 'data/clips', \(key)"))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message.contains("applies only to") == true)
        #expect(issues.first?.message.contains("'mat'") == true)
    }

    @Test(arguments: [
        ("['J', 'C']", "dataset.sources[0].axes", "at least 3"),
        ("['J', 'C', 'T', 'T']", "dataset.sources[0].axes[3]", "axis"),
        ("['J', 'C', 'J']", "dataset.sources[0].axes[2]", "must be distinct"),
        ("['J', 'X', 'T']", "dataset.sources[0].axes[1]", "'X'"),
    ])
    func axesMustBeAPermutation(axes: String, path: String, phrase: String) throws {
        let fixture = try ManifestFixture()
        let issues = fixture.issues(Self.manifest("format: 'mat', path: 'data/clips', variable: 'd_skel', axes: \(axes)"))
        #expect(issues.map(\.path) == [path], "\(issues)")
        #expect(issues.first?.message.contains(phrase) == true, "\(issues)")
    }
}

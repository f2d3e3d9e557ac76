import Foundation
import JSON5
import Manifest
import ManifestSchema
import Testing

@Suite struct ManifestIssueTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    /// The case from the issue tracker: a misspelled section name.
    @Test func misspelledKeySuggestsTheNearestKey() throws {
        let text = """
            {
              name: 'x',
              dataset: {
                sources: [{ format: 'uea', path: 'data/train.ts' }],
                valdation: { fraction: 0.1 },
              },
            }
            """
        let error = #expect(throws: ManifestError.self) { try fixture.parse(text) }
        #expect(error?.description == "experiments/x.json5:5:5: dataset.valdation: unknown key; did you mean 'validation'?")
    }

    @Test func unknownKeyFarFromAnyKnownKeyListsTheKnownKeys() {
        let issues = fixture.issues(ManifestFixture.minimal("evaluation: { frobnicate: 1 }"))
        #expect(issues.map(\.description) == ["evaluation.frobnicate: unknown key; expected one of 'aggregation'"])
    }

    @Test func everyProblemIsReportedInOnePass() {
        let text = """
            {
              name: 'bad name!',
              dataset: {
                sources: [
                  { format: 'uea', path: 'data/missing.ts' },
                  { format: 'cvs', path: 'data/walk.csv' },
                ],
              },
              windows: { duration: 2, size: 50 },
              model: { channels: [64, 64], kernelSizes: [3, 4] },
              training: { epochs: 0, batchsize: 4, seeds: [1, 1] },
            }
            """
        let issues = fixture.issues(text)
        let summary = issues.map { "\($0.line):\($0.column) \($0.path)" }
        #expect(summary == [
            "2:9 name",
            "5:30 dataset.sources[0].path",
            "6:17 dataset.sources[1].format",
            "9:33 windows.size",
            "10:49 model.kernelSizes[1]",
            "11:23 training.epochs",
            "11:26 training.batchsize",
            "11:51 training.seeds[1]",
        ])
        #expect(issues.count == 8)
        #expect(issues.first { $0.path == "training.batchsize" }?.message == "unknown key; did you mean 'batchSize'?")
    }

    @Test(arguments: [
        ("training: { epochs: '10' }", "training.epochs", "expected an integer, found a string"),
        ("training: { learningRate: true }", "training.learningRate", "expected a number, found a boolean"),
        ("training: { epochs: 10.5 }", "training.epochs", "expected an integer, found 10.5"),
        ("training: { threads: 1e3 }", "training.threads",
         "expected an integer, found 1000 written with a fraction or an exponent; write it as digits only (1000)"),
        ("training: { seeds: 3 }", "training.seeds", "expected an array, found a number"),
        ("model: []", "model", "expected an object, found an array"),
        ("description: null", "description", "expected a string, found null"),
        (ManifestFixture.withDataset("labels: { a: 1 }"), "dataset.labels.a", "expected a string, found a number"),
        ("features: { layout: 18 }", "features.layout", "expected a layout name (a string) or a layout declaration (an object), found a number"),
    ])
    func wrongType(member: String, path: String, message: String) {
        let issues = fixture.issues(member.hasPrefix("{") ? member : ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test(arguments: [
        (ManifestFixture.withDataset("validation: { fraction: 0.7 }"),
         "dataset.validation.fraction", "value out of range: expected a number in (0, 0.5], found 0.7"),
        (ManifestFixture.withDataset("validation: { fraction: 0 }"),
         "dataset.validation.fraction", "value out of range: expected a number in (0, 0.5], found 0"),
        ("training: { epochs: 100001 }", "training.epochs", "value out of range: expected an integer in [1, 100000], found 100001"),
        ("training: { threads: 100000 }", "training.threads", "value out of range: expected an integer in [1, 1024], found 100000"),
        ("training: { learningRate: 0 }", "training.learningRate", "value out of range: expected a number > 0, found 0"),
        ("training: { seeds: [] }", "training.seeds", "value out of range: expected at least 1 element, found 0"),
        ("training: { seeds: [-1] }", "training.seeds[0]", "value out of range: expected an integer >= 0, found -1"),
        // Digits past Int's range are too large, not "not an integer".
        ("training: { seeds: [18446744073709551616] }", "training.seeds[0]",
         "value out of range: expected an integer >= 0, found 1.8446744073709552e+19"),
        ("model: { dropout: 1 }", "model.dropout", "value out of range: expected a number in [0, 1), found 1"),
        ("model: { kernelSizes: [7, 4, 3] }", "model.kernelSizes[1]", "value out of range: expected an odd kernel size, so that padding keeps the length, found 4"),
        ("features: { frameRate: Infinity }", "features.frameRate", "value out of range: expected a finite number, found Infinity"),
        ("windows: { duration: 0.01 }", "windows.duration", "value out of range: 0.01 s at 30 frames per second is less than one frame"),
        ("windows: { duration: 1, frameRate: 29.97 }", "windows.duration",
         "value out of range: 1 s at 29.97 frames per second is 29.97 frames, not a whole number; state windows.size in frames instead"),
        ("windows: { size: 1000000 }", "windows.size",
         "value out of range: a window of 1000000 frames is more than 10000 (5 minutes at 30 frames per second); windows are held in memory whole"),
        ("windows: { sampling: 'uniform', size: 48, stride: 4 }", "windows.stride",
         "contradictory values: stride applies only to sampling 'sliding'; uniform sampling makes one window per recording"),
        ("name: ''", "name", "value out of range: expected 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-', found ''"),
    ])
    func outOfRange(member: String, path: String, message: String) {
        // A key given twice is a JSON5 error, so the name case replaces the minimal one's name,
        // and dataset cases come as whole manifests.
        let text = member.hasPrefix("{") ? member
            : member.hasPrefix("name:") ? ManifestFixture.minimal(member).replacingOccurrences(of: "name: 'x',", with: "")
            : ManifestFixture.minimal(member)
        let issues = fixture.issues(text)
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test(arguments: [
        ("training: { optimizer: 'adamx' }", "training.optimizer", "unknown value 'adamx'; expected one of 'adam', 'adamw', 'sgd'; did you mean 'adam'?"),
        ("windows: { padding: 'repeat' }", "windows.padding", "unknown value 'repeat'; expected one of 'zero', 'drop'"),
        ("model: { kind: 'lstm' }", "model.kind", "unknown value 'lstm'; expected one of 'tcn', 'stgcn', 'stgcn-small', 'stgcnpp', 'stgcnpp-small', 'ctrgcn', 'ctrgcn-small', 'mlp'"),
        ("evaluation: { aggregation: 'max' }", "evaluation.aggregation", "unknown value 'max'; expected one of 'mean', 'vote'"),
        ("features: { layout: 'vision17' }", "features.layout",
         "unknown value 'vision17'; expected one of 'vision18', 'kinect-v1', 'accelerometer-gyroscope', 'univariate' or an object declaring a layout; did you mean 'vision18'?"),
    ])
    func unknownEnumValueListsAllowedValues(member: String, path: String, message: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test(arguments: [("features: { cache: 'data/walk.csv' }", "features.cache"), ("output: { directory: 'data/walk.csv' }", "output.directory")])
    func aFolderSettingNamingAFileIsReported(member: String, path: String) throws {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == "\(fixture.path("data/walk.csv")) is a file; expected a folder (created if missing)")
        // Under a file, or through a link to nothing, it cannot be created either.
        let under = fixture.issues(ManifestFixture.minimal(member.replacingOccurrences(of: "data/walk.csv", with: "data/walk.csv/sub")))
        #expect(under.map(\.message) == [
            "\(fixture.path("data/walk.csv/sub")) lies under \(fixture.path("data/walk.csv")), which is a file; expected a folder (created if missing)",
        ])
        let link = fixture.base.appendingPathComponent("data/dangling-\(path)")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: fixture.path("data/nothing-here"))
        let dangling = fixture.issues(ManifestFixture.minimal(member.replacingOccurrences(of: "data/walk.csv", with: "data/dangling-\(path)")))
        #expect(dangling.map(\.message) == ["\(link.path) is a symbolic link to nothing; expected a folder (created if missing)"])
        // A folder that does not exist yet, or one that does, is fine.
        _ = try fixture.parse(ManifestFixture.minimal(member.replacingOccurrences(of: "data/walk.csv", with: "data/new")))
        _ = try fixture.parse(ManifestFixture.minimal(member.replacingOccurrences(of: "data/walk.csv", with: "data/clips")))
    }

    @Test func missingSourceFileNamesTheFileAndItsJSONPath() {
        let issues = fixture.issues("{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/nope.ts' }] } }")
        #expect(issues == [ManifestIssue(
            path: "dataset.sources[0].path", line: 1, column: 58,
            message: "missing file: no file or directory at \(fixture.path("data/nope.ts"))")])
    }

    @Test(arguments: [
        ("{ dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }] } }", "name", "missing required value: the experiment's name, used in report folders"),
        ("{ name: 'x' }", "dataset.sources", "missing required value: the training data, a list of { format, path } objects"),
        ("{ name: 'x', dataset: { sources: [{ path: 'data/train.ts' }] } }", "dataset.sources[0].format", "missing required value"),
        ("{ name: 'x', dataset: { sources: [{ format: 'csv', path: 'data/walk.csv' }] } }", "dataset.sources[0].label",
         "missing required value: a csv file needs the label of its sequences (only a folder can take labels from its subfolder names)"),
        ("{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }], validation: { strategy: 'files' } } }",
         "dataset.validation.sources", "missing required value: dataset.validation.strategy 'files' needs validation sources"),
        ("{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }] }, features: { layout: { name: 'h', joints: ['a'] } } }",
         "features.layout.channels", "missing required value"),
    ])
    func missingRequiredValue(text: String, path: String, message: String) {
        let issues = fixture.issues(text)
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test func durationAndSizeThatDisagreeAreContradictory() {
        let issues = fixture.issues(ManifestFixture.minimal("windows: { duration: 2, size: 50 }"))
        #expect(issues.map(\.description) == [
            "windows.size: contradictory values: windows.size is 50 frames, but windows.duration 2 s at 30 frames per second is 60 frames",
        ])
    }

    @Test func kernelSizesAndChannelsCountMismatch() {
        let issues = fixture.issues(ManifestFixture.minimal("model: { channels: [32, 32] }"))
        #expect(issues.map(\.description) == [
            "model.channels: contradictory values: model.kernelSizes (default [7, 5, 3]) has 3 entries but model.channels has 2; "
                + "give one kernel size per layer",
        ])
        #expect(issues.first?.line == 4)
    }

    @Test(arguments: [
        ("validation: { sources: [{ format: 'uea', path: 'data/test.ts' }] }", "dataset.validation.sources",
         "contradictory values: validation sources are read only with strategy 'files', but dataset.validation.strategy is 'automatic'"),
        ("validation: { strategy: 'none', fraction: 0.1 }", "dataset.validation.fraction",
         "contradictory values: fraction applies only to strategy 'automatic', but dataset.validation.strategy is 'none'"),
    ])
    func validationSettingsThatContradictTheStrategy(validation: String, path: String, message: String) {
        let issues = fixture.issues(ManifestFixture.withDataset(validation))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test(arguments: [
        ("training: { momentum: 0.5 }", "training.momentum", "contradictory values: momentum applies only to optimizer 'sgd', but training.optimizer is 'adam'"),
        ("model: { channels: [8], kernelSizes: [3, 3] }", "model.kernelSizes",
         "contradictory values: model.kernelSizes has 2 entries but model.channels has 1; give one kernel size per layer"),
        ("model: { channels: [8, 8], kernelSizes: [3] }", "model.kernelSizes",
         "contradictory values: model.kernelSizes has 1 entry but model.channels has 2; give one kernel size per layer"),
        ("training: { seeds: [3, 4, 3] }", "training.seeds[2]", "contradictory values: seed 3 repeats training.seeds[0]; seeds must be distinct"),
        ("features: { layout: { name: 'h', joints: ['a', 'b'], channels: ['x'], edges: [[0, 2]] } }", "features.layout",
         "layout 'h': edge (0, 2) names a joint outside 0..<2"),
        ("features: { layout: { name: 'h', joints: ['a', 'b'], channels: ['x'], mirrorPairs: [[0]] } }", "features.layout.mirrorPairs[0]",
         "expected a pair of joint indices [first, second], found 1 element"),
    ])
    func otherContradictions(member: String, path: String, message: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message == message)
    }

    @Test func uEAFileWithALabelOrAFolderIsRejected() {
        let labeled = fixture.issues("{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/train.ts', label: 'a' }] } }")
        #expect(labeled.map(\.path) == ["dataset.sources[0].label"])
        let folder = fixture.issues("{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/clips' }] } }")
        #expect(folder.map(\.description) == ["dataset.sources[0].path: expected a .ts file for format 'uea', found a directory"])
    }

    @Test func syntaxErrorNamesFileLineAndColumn() {
        let error = #expect(throws: JSON5Error.self) {
            try fixture.parse("{\n  name: 'x',\n  dataset: { sources: [] }\n  training: {},\n}")
        }
        #expect(error?.description == "experiments/x.json5:4:3: expected ',' or '}' after object member, found 't'")
    }
}

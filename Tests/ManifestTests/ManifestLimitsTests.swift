import Foundation
import Manifest
import ManifestSchema
import Testing

/// Extreme values `validate` must reject at their JSON path rather than let `run` trap or
/// allocate past the machine (issue 15, items 6 and 7).
@Suite struct ManifestLimitsTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    /// A duration × frame rate beyond an `Int` trapped (SIGILL) when converted to a window size.
    @Test(arguments: [
        ("windows: { frameRate: 1000000 }", "windows.frameRate", "(2 s at "),
        ("features: { frameRate: 1000000 }", "windows", "(2 s at "),
        ("windows: { duration: 1e18 }", "windows.duration", "(1"),
        ("windows: { duration: 1e30 }", "windows.duration", "(1"),
        ("windows: { size: 20000 }", "windows.size", "is more than"),
    ])
    func windowBeyondTheLimitIsReportedAtItsKey(member: String, path: String, detail: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        let message = issues.first?.message ?? ""
        #expect(message.hasPrefix("value out of range: a window of "), "\(issues)")
        #expect(message.contains(" frames " + detail), "\(issues)")
        #expect(message.contains("more than 10000"))
    }

    /// A frame rate of 5e18 passed with a stated size, then resampling made 5e19 frames.
    @Test(arguments: ["windows: { frameRate: 5e18, size: 10 }", "features: { frameRate: 5e18 }",
                      "dataset: { sources: [{ format: 'uea', path: 'data/train.ts', frameRate: 1e7 }] }"])
    func frameRateBeyondTheGapRuleIsRejected(member: String) {
        let issues = fixture.issues(member.hasPrefix("dataset") ? "{ name: 'x', \(member) }" : ManifestFixture.minimal(member))
        #expect(issues.count == 1)
        #expect(issues.first?.path.hasSuffix("frameRate") == true, "\(issues)")
        #expect(issues.first?.message.hasPrefix("value out of range: expected a number in (0, 1000000], found ") == true, "\(issues)")
    }

    @Test func overflowingWindowNamesFileLineAndColumn() {
        let error = #expect(throws: ManifestError.self) { try fixture.parse(ManifestFixture.minimal("windows: { duration: 1e18 }")) }
        #expect(error?.description.hasPrefix("experiments/x.json5:4:24: windows.duration: value out of range:") == true, "\(String(describing: error))")
    }

    /// Numbers finite as a Double but infinite or 0 as the trainer's Float: the loss became NaN,
    /// or the clip norm failed a precondition.
    @Test(arguments: [
        ("training: { learningRate: 1e308 }", "training.learningRate"),
        ("training: { weightDecay: 1e308 }", "training.weightDecay"),
        ("training: { gradientClipNorm: 1e-50 }", "training.gradientClipNorm"),
        ("training: { classWeights: { walk: 1e308 } }", "training.classWeights.walk"),
    ])
    func numberAFloatCannotHoldIsRejected(member: String, path: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message.contains("a 32-bit float holds") == true, "\(issues)")
    }

    @Test func zeroAndOrdinaryNumbersStayValid() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal("training: { weightDecay: 0, learningRate: 1e-30 }"))
        #expect(configuration.training.weightDecay == 0)
        #expect(configuration.training.learningRate == 1e-30)
    }

    /// `hiddenUnits` of 2^62 overflowed the layer's weight count when the model was built.
    @Test func modelSizeThatOverflowsAnIntegerIsRejected() {
        let issues = fixture.issues(ManifestFixture.minimal("model: { kind: 'mlp', hiddenUnits: 4611686018427387904 }"))
        #expect(issues.map(\.path) == ["model"])
        #expect(issues.first?.message.contains("overflows a 64-bit integer") == true, "\(issues)")
    }

    /// Channels whose training needs more memory than the machine has aborted in an allocation.
    @Test(arguments: [
        "model: { kind: 'tcn', channels: [100000000, 64], kernelSizes: [3, 3] }",
        "model: { kind: 'mlp', hiddenUnits: 1000000000000 }",
        "training: { batchSize: 1000000000000 }",
    ])
    func modelTheMachineCannotHoldIsRejectedWithTheNumbers(member: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [member.hasPrefix("model") ? "model" : "training.batchSize"])
        let message = issues.first?.message ?? ""
        #expect(message.contains("this process may use"), "\(issues)")
        #expect(message.contains(" parameters × 4 copies + ") && message.contains(" GB "))
    }

    @Test func defaultModelFitsInMemory() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal())
        let estimate = try #require(configuration.model.memoryEstimate(
            layout: configuration.features.layout, windowSize: configuration.windows.size, classCount: 2))
        #expect(try #require(estimate.trainingBytes(batchSize: configuration.training.batchSize)) < 1_000_000_000)
    }
}

/// Long values are not echoed whole (issue 15, item 9).
@Suite struct ManifestEchoTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    static let long = String(repeating: "x", count: 100_000)

    /// Each member's text, with `LONG` standing for 100,000 characters, and the issue's path.
    @Test(arguments: [
        ("{ name: 'LONG', dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }] } }", "name"),
        ("features: { layout: 'LONG' }", "features.layout"),
        ("model: { kind: 'LONG' }", "model.kind"),
        ("LONG: 1", "[\"" + String(repeating: "x", count: 60) + "… (100000 characters)\"]"),
    ])
    func longValueIsShortenedInTheMessage(member: String, path: String) {
        let text = member.replacingOccurrences(of: "LONG", with: Self.long)
        let issues = fixture.issues(text.hasPrefix("{") ? text : ManifestFixture.minimal(text))
        #expect(issues.map(\.path) == [path])
        let description = issues.first?.description ?? ""
        #expect(description.count < 400, "\(description.prefix(200))")
        #expect(description.contains("… (100000 characters)"), "\(description.prefix(200))")
    }

    @Test func missingFileOfALongPathIsShortened() {
        let issues = fixture.issues("{ name: 'x', dataset: { sources: [{ format: 'uea', path: '/\(Self.long)' }] } }")
        #expect(issues.map(\.path) == ["dataset.sources[0].path"])
        #expect((issues.first?.message.count ?? .max) < 4200)
    }
}

/// Smaller input problems (issue 15, item 15).
@Suite struct ManifestInputTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    /// Before: `/tmp/a\u0000b` became the folder `/tmp/a%00b` without a word.
    @Test(arguments: ["output: { directory: 'reports/a\\u0000b' }", "features: { cache: 'cache\\u0000' }"])
    func pathWithANulIsRejectedAtItsKey(member: String) {
        let issues = fixture.issues(ManifestFixture.minimal(member))
        #expect(issues.map(\.path) == [member.hasPrefix("output") ? "output.directory" : "features.cache"])
        #expect(issues.first?.message.contains("NUL character") == true, "\(issues)")
    }

    /// A UTF-8 byte order mark before the manifest is whitespace (JSON5 5.2), not echoed.
    @Test func byteOrderMarkBeforeTheManifestIsSkipped() throws {
        let configuration = try fixture.parse("\u{FEFF}" + ManifestFixture.minimal())
        #expect(configuration.name == "x")
        let issues = fixture.issues("\u{FEFF}" + ManifestFixture.minimal("training: { epochs: 0 }"))
        #expect(issues.map(\.description) == ["training.epochs: value out of range: expected an integer in [1, 100000], found 0"])
        #expect(issues.first?.line == 4 && issues.first?.column == 23)
    }
}

import Foundation
import Manifest
import NeuralNetwork
import Testing

/// The training-engine keys of a manifest: `training.schedule`, `gradientClipNorm`,
/// `classWeights`, `earlyStopping`, `restoreBestWeights`, `checkpointEvery`, and `model.kind: 'mlp'`
/// with `hiddenUnits` and `normalizeInput`: defaults, validation, and the resolved round trip.
@Suite struct ManifestTrainingEngineTests {
    let fixture: ManifestFixture

    init() throws {
        fixture = try ManifestFixture()
    }

    @Test func defaultsKeepTodaysBehaviour() throws {
        let training = try fixture.parse(ManifestFixture.minimal()).training
        #expect(training.schedule == ScheduleConfiguration())
        #expect(training.schedule.kind == .constant && training.schedule.warmupEpochs == 0)
        #expect(training.gradientClipNorm == nil && training.classWeights == nil && training.earlyStopping == nil)
        #expect(!training.restoreBestWeights)
        #expect(training.checkpointEvery == 10)
    }

    @Test(arguments: [
        "training: { schedule: { kind: 'cosine', minimumLearningRate: 0.00001, warmupEpochs: 5 } }",
        "training: { schedule: { kind: 'step', stepEpochs: 20, gamma: 0.5 }, gradientClipNorm: 1, classWeights: 'balanced' }",
        "training: { classWeights: { walk: 2, run: 0.5 }, checkpointEvery: 3 }",
        "training: { earlyStopping: { metric: 'validation.loss', patience: 5, minimumDelta: 0.001 }, restoreBestWeights: true }",
        "model: { kind: 'mlp', hiddenUnits: 64, dropout: 0.25, normalizeInput: true }",
        "model: { kind: 'stgcn-small', normalizeInput: true }",
        "model: { kind: 'stgcn-small', stream: 'boneMotion' }",
        "model: { kind: 'tcn', stream: 'jointMotion' }",
        "training: { recipe: 'pyskl' }",
        "training: { recipe: 'pyskl', learningRate: 0.05, schedule: { warmupEpochs: 5 } }",
        "training: { recipe: 'pyskl', optimizer: 'adamw' }",
        "training: { optimizer: 'sgd', momentum: 0.5, nesterov: true }",
    ])
    func settingsDecodeAndRoundTripThroughResolvedJSON(members: String) throws {
        let configuration = try fixture.parse(ManifestFixture.minimal(members))
        let reread = try ExperimentConfiguration.parse(text: configuration.resolvedJSON(), fileName: "resolved.json", baseDirectory: fixture.base)
        #expect(reread == configuration)
    }

    @Test func valuesAreRead() throws {
        let configuration = try fixture.parse(ManifestFixture.minimal(
            "training: { schedule: { kind: 'step', stepEpochs: 20, gamma: 0.5, warmupEpochs: 2 }, gradientClipNorm: 1.5, "
                + "classWeights: { walk: 2 }, earlyStopping: { metric: 'validation.loss', patience: 4 }, restoreBestWeights: true }"))
        let training = configuration.training
        #expect(training.schedule == ScheduleConfiguration(kind: .step, stepEpochs: 20, gamma: 0.5, warmupEpochs: 2))
        #expect(training.gradientClipNorm == 1.5)
        #expect(training.classWeights == .explicit(["walk": 2]))
        #expect(training.earlyStopping == EarlyStoppingConfiguration(metric: .validationLoss, patience: 4, minimumDelta: 0))
        #expect(training.restoreBestWeights)
        #expect(configuration.planDescription().contains("early stopping on validation.loss (patience 4"))
    }

    @Test(arguments: [
        ("training: { schedule: { kind: 'constant', gamma: 0.5 } }", "training.schedule.gamma",
         "contradictory values: training.schedule.gamma applies only to kind 'step', but training.schedule.kind is 'constant'"),
        ("training: { schedule: { kind: 'step', minimumLearningRate: 0.1 } }", "training.schedule.minimumLearningRate",
         "contradictory values: training.schedule.minimumLearningRate applies only to kind 'cosine', but training.schedule.kind is 'step'"),
        ("training: { epochs: 5, schedule: { warmupEpochs: 5 } }", "training.schedule",
         "contradictory values: training.schedule.warmupEpochs (5) must be less than training.epochs (5)"),
        ("training: { schedule: { kind: 'cosine', minimumLearningRate: 0.01 } }", "training.schedule",
         "contradictory values: training.schedule.minimumLearningRate (0.01) must be less than training.learningRate (0.001)"),
        ("training: { gradientClipNorm: 0 }", "training.gradientClipNorm", "value out of range: expected a number > 0, found 0"),
        ("training: { classWeights: 'inverse' }", "training.classWeights",
         "unknown value 'inverse'; expected 'balanced' or an object { label: weight }"),
        ("training: { classWeights: { walk: -1 } }", "training.classWeights.walk", "value out of range: expected a number > 0, found -1"),
        ("training: { restoreBestWeights: true }", "training.restoreBestWeights",
         "contradictory values: training.restoreBestWeights needs training.earlyStopping, whose metric picks the best epoch"),
        ("training: { earlyStopping: { metric: 'validation.f1' } }", "training.earlyStopping.metric",
         "unknown value 'validation.f1'; expected one of 'validation.accuracy', 'validation.loss'"),
        ("training: { checkpointEvery: 0 }", "training.checkpointEvery", "value out of range: expected an integer >= 1, found 0"),
        ("model: { kind: 'tcn', hiddenUnits: 8 }", "model.hiddenUnits",
         "contradictory values: model.hiddenUnits applies only to kind 'mlp', but model.kind is 'tcn'"),
        ("model: { kind: 'mlp', channels: [8] }", "model.channels",
         "contradictory values: model.channels applies only to kind 'tcn', but model.kind is 'mlp'"),
        // A misspelt key of another family: suggested with the kinds it belongs to (before, the TCN's keys were listed).
        ("model: { kind: 'tcn', hiddenUnit: 8 }", "model.hiddenUnit", "unknown key; did you mean 'hiddenUnits' (kind 'mlp' only)?"),
        ("features: { layout: 'univariate' }, model: { normalizeInput: true }", "model.normalizeInput",
         "contradictory values: model.normalizeInput needs a body-pose layout with channels x, y and confidence, or a 3-D skeleton (channels x, y, z without confidence, bones in `edges`, joints hipCenter and shoulderCenter); layout 'univariate' has channels [\"x\"], 0 edges and neither joint"),
        ("features: { layout: 'univariate' }, model: { stream: 'bone' }", "model.stream",
         "contradictory values: model.stream 'bone' needs bones, and layout 'univariate' has no edges; use 'joint' or 'jointMotion', or a layout with edges"),
        ("training: { recipe: 'pysk' }", "training.recipe",
         "unknown value 'pysk'; expected one of 'actionlab', 'pyskl'; did you mean 'pyskl'?"),
        ("training: { nesterov: true }", "training.nesterov",
         "contradictory values: nesterov applies only to optimizer 'sgd', but training.optimizer is 'adam'"),
        ("training: { recipe: 'pyskl', momentum: 0 }", "training.momentum",
         "contradictory values: training.nesterov (from recipe 'pyskl') needs training.momentum > 0"),
        ("training: { optimizer: 'sgd', momentum: 0, nesterov: true }", "training.momentum",
         "contradictory values: training.nesterov needs training.momentum > 0"),
        ("training: { recipe: 'pyskl', schedule: { kind: 'step', minimumLearningRate: 0.01 } }",
         "training.schedule.minimumLearningRate",
         "contradictory values: training.schedule.minimumLearningRate applies only to kind 'cosine', but training.schedule.kind is 'step'"),
        ("model: { stream: 'bones' }", "model.stream",
         "unknown value 'bones'; expected one of 'joint', 'bone', 'jointMotion', 'boneMotion'; did you mean 'bone'?"),
    ])
    func invalidSettingsAreReportedAtTheirPath(members: String, path: String, message: String) {
        let issues = fixture.issues(ManifestFixture.minimal(members))
        #expect(issues.map(\.path) == [path], "\(issues)")
        #expect(issues.first?.message == message)
    }

    /// `model.stream` is written to `resolved.json` only when it is not the joints, so the trial
    /// ids of manifests without it are what they were; a stream changes the id.
    @Test func theJointStreamLeavesTheResolvedFormAsItWas() throws {
        let joints = try fixture.parse(ManifestFixture.minimal("model: { kind: 'stgcn-small', stream: 'joint' }"))
        let plain = try fixture.parse(ManifestFixture.minimal("model: { kind: 'stgcn-small' }"))
        let bones = try fixture.parse(ManifestFixture.minimal("model: { kind: 'stgcn-small', stream: 'bone' }"))
        #expect(joints.resolvedJSON() == plain.resolvedJSON())
        #expect(!plain.resolvedJSON().contains("stream"))
        let bonesJSON = bones.resolvedJSON()
        #expect(bonesJSON.range(of: #""stream"\s*:\s*"bone""#, options: .regularExpression) != nil, "\(bonesJSON)")
        #expect(bones.model.stream == .bone && plain.model.stream == .joint)
        #expect(bones.model.settingsDescription.hasSuffix("bone stream"))
    }

    /// `training.recipe: 'pyskl'` is PYSKL's optimizer and schedule (`configs/stgcn++/*/j.py`);
    /// stated keys override it, the nested schedule starts from the recipe's, and `resolved.json`
    /// writes every value it set, so the resolved form reads back the same without the recipe.
    @Test func thePYSKLRecipeSetsItsValuesAndStatedKeysOverrideThem() throws {
        let pyskl = try fixture.parse(ManifestFixture.minimal("training: { recipe: 'pyskl' }")).training
        #expect(pyskl.recipe == .pyskl && pyskl.optimizer == .sgd && pyskl.nesterov)
        #expect(pyskl.learningRate == 0.1 && pyskl.momentum == 0.9 && pyskl.weightDecay == 0.0005)
        #expect(pyskl.schedule == ScheduleConfiguration(kind: .cosine, minimumLearningRate: 0))
        #expect(pyskl.epochs == TrainingConfiguration().epochs && pyskl.batchSize == TrainingConfiguration().batchSize)

        let overridden = try fixture.parse(ManifestFixture.minimal(
            "training: { recipe: 'pyskl', learningRate: 0.05, epochs: 30, schedule: { warmupEpochs: 5 } }"))
        #expect(overridden.training.learningRate == 0.05 && overridden.training.epochs == 30)
        #expect(overridden.training.schedule == ScheduleConfiguration(kind: .cosine, minimumLearningRate: 0, warmupEpochs: 5))
        #expect(overridden.training.nesterov && overridden.training.weightDecay == 0.0005)
        #expect(overridden.planDescription().contains("recipe pyskl: 30 epochs"))
        #expect(overridden.planDescription().contains("momentum 0.9, Nesterov"))

        let json = overridden.resolvedJSON()
        for pattern in [#""recipe"\s*:\s*"pyskl""#, #""optimizer"\s*:\s*"sgd""#, #""nesterov"\s*:\s*true"#,
                        #""momentum"\s*:\s*0\.9"#, #""weightDecay"\s*:\s*0\.0005"#, #""kind"\s*:\s*"cosine""#,
                        #""minimumLearningRate"\s*:\s*0[,\s}]"#, #""learningRate"\s*:\s*0\.05"#] {
            #expect(json.range(of: pattern, options: .regularExpression) != nil, "\(pattern) in \(json)")
        }
        var withoutRecipe = overridden.training
        withoutRecipe.recipe = .actionlab
        let decoded = try JSONDecoder().decode(TrainingConfiguration.self, from: JSONEncoder().encode(overridden.training))
        #expect(decoded == overridden.training)
        let decodedWithoutRecipe = try JSONDecoder().decode(TrainingConfiguration.self, from: JSONEncoder().encode(withoutRecipe))
        #expect(decodedWithoutRecipe == withoutRecipe)

        let plain = try fixture.parse(ManifestFixture.minimal("training: { recipe: 'actionlab' }"))
        #expect(try plain.resolvedJSON() == fixture.parse(ManifestFixture.minimal()).resolvedJSON())
        #expect(!plain.resolvedJSON().contains("recipe") && !plain.resolvedJSON().contains("nesterov"))
    }

    @Test func earlyStoppingNeedsAValidationSet() {
        let issues = fixture.issues(
            "{ name: 'x', dataset: { sources: [{ format: 'uea', path: 'data/train.ts' }], validation: { strategy: 'none' } }, "
                + "training: { earlyStopping: {} } }")
        #expect(issues.map(\.path) == ["training"], "\(issues)")
        #expect(issues.first?.message.contains("earlyStopping monitors the validation set") == true)
    }
}

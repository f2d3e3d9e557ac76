import Manifest
import NeuralNetwork
import Testing
@testable import Training

/// The optimizer a manifest's `training` section builds, for each recipe.
@Suite struct OptimizerFactoryTests {
    /// PYSKL's recipe builds SGD with Nesterov momentum 0.9, rate 0.1 and weight decay 5e-4
    /// (PYSKL `configs/stgcn++/*/j.py`: `SGD(lr=0.1, momentum=0.9, weight_decay=0.0005, nesterov=True)`).
    @Test func thePYSKLRecipeBuildsNesterovSGD() throws {
        let sgd = try #require(OptimizerFactory.make(TrainingRecipe.pyskl.configuration) as? SGD)
        #expect(sgd.nesterov && sgd.momentum == 0.9 && sgd.learningRate == 0.1 && sgd.weightDecay == 0.0005)
    }

    @Test func plainSGDKeepsClassicalMomentum() throws {
        let sgd = try #require(OptimizerFactory.make(TrainingConfiguration(optimizer: .sgd, learningRate: 0.01)) as? SGD)
        #expect(!sgd.nesterov && sgd.momentum == 0.9)
        #expect(OptimizerFactory.make(TrainingConfiguration()) is Adam)
    }
}

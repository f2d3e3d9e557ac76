import ManifestSchema
import NeuralNetwork

/// How a model is fitted: epochs, batches, optimizer and the seeds of the runs.
public struct TrainingConfiguration: Sendable, Hashable {
    /// The optimization algorithm.
    public enum Optimizer: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// Adam (Kingma and Ba, 2015), with L2 weight decay added to the gradient.
        case adam
        /// AdamW (Loshchilov and Hutter, 2019), with decoupled weight decay.
        case adamw
        /// Stochastic gradient descent with ``TrainingConfiguration/momentum``.
        case sgd
    }

    /// Which epoch's weights a run keeps: scores on every split, `weights.h5` and exports come
    /// from them.
    public enum Weights: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
        /// The weights after the last epoch trained.
        case last
        /// The weights after the best validation epoch: by `earlyStopping.metric` when
        /// ``TrainingConfiguration/earlyStopping`` is set, else by validation accuracy (the
        /// earliest epoch on ties). Needs a validation set.
        case bestValidation
    }

    /// The named recipe the other values start from (`training.recipe`); stated keys override it.
    public var recipe: TrainingRecipe
    /// The number of passes over the training windows, 1 to 100 000.
    public var epochs: Int
    /// The number of windows per gradient step.
    public var batchSize: Int
    /// The optimization algorithm.
    public var optimizer: Optimizer
    /// The step size, greater than 0.
    public var learningRate: Double
    /// The weight decay coefficient, at least 0.
    public var weightDecay: Double
    /// The momentum of ``Optimizer/sgd``, in [0, 1); ignored by the other optimizers.
    public var momentum: Double
    /// Whether ``Optimizer/sgd`` uses Nesterov momentum (Sutskever et al., 2013, in PyTorch's
    /// form); needs a momentum above 0; ignored by the other optimizers.
    public var nesterov: Bool
    /// The label smoothing of the cross-entropy loss, in [0, 1).
    public var labelSmoothing: Double
    /// The training seeds, distinct; one run per seed.
    public var seeds: [Int]
    /// The threads each run splits its numeric work between (``ComputeThreads``; 1 by default:
    /// a sweep runs trials in parallel instead).
    public var threads: Int
    /// The most ``threads`` a run takes (manifest and `--threads`): more than any machine it
    /// runs on has, where a typo (100000) would split every operation into its smallest parts.
    public static let maximumThreads = 1024
    /// How the learning rate changes from epoch to epoch.
    public var schedule: ScheduleConfiguration
    /// The largest global L2 norm of the gradients before each step (PyTorch's
    /// `clip_grad_norm_`), or nil for no clipping.
    public var gradientClipNorm: Double?
    /// Weights of the classes in the loss, or nil for equal weights.
    public var classWeights: ClassWeighting?
    /// When to stop before ``epochs``, or nil to train every epoch.
    public var earlyStopping: EarlyStoppingConfiguration?
    /// Whether the saved weights are those of the best epoch by ``earlyStopping``'s metric
    /// instead of the last epoch's; needs ``earlyStopping``.
    public var restoreBestWeights: Bool
    /// Epochs between the checkpoints a killed trial resumes from, at least 1.
    public var checkpointEvery: Int
    /// Which epoch's weights are kept, scored and saved (`training.weights`).
    public var weights: Weights

    /// The weights a run keeps: ``weights``, or ``Weights/bestValidation`` when
    /// ``restoreBestWeights`` (the early-stopping spelling of the same choice) is set.
    public var keptWeights: Weights {
        restoreBestWeights ? .bestValidation : weights
    }

    /// Creates a training configuration; the defaults train 100 epochs of Adam with one seed.
    public init(
        recipe: TrainingRecipe = .actionlab, epochs: Int = 100, batchSize: Int = 16, optimizer: Optimizer = .adam, learningRate: Double = 0.001,
        weightDecay: Double = 0, momentum: Double = 0.9, nesterov: Bool = false, labelSmoothing: Double = 0, seeds: [Int] = [0], threads: Int = 1,
        schedule: ScheduleConfiguration = .init(), gradientClipNorm: Double? = nil, classWeights: ClassWeighting? = nil,
        earlyStopping: EarlyStoppingConfiguration? = nil, restoreBestWeights: Bool = false, checkpointEvery: Int = 10,
        weights: Weights = .last
    ) {
        self.recipe = recipe
        self.epochs = epochs
        self.batchSize = batchSize
        self.optimizer = optimizer
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        self.momentum = momentum
        self.nesterov = nesterov
        self.labelSmoothing = labelSmoothing
        self.seeds = seeds
        self.threads = threads
        self.schedule = schedule
        self.gradientClipNorm = gradientClipNorm
        self.classWeights = classWeights
        self.earlyStopping = earlyStopping
        self.restoreBestWeights = restoreBestWeights
        self.checkpointEvery = checkpointEvery
        self.weights = weights
    }
}

import ManifestSchema

/// A named set of optimizer and schedule values that `training.recipe` starts from; every key
/// stated beside it overrides the recipe's value, and `resolved.json` writes every value.
///
/// A recipe sets what a published training recipe fixes independently of the dataset (the
/// optimizer, its learning rate, momentum and weight decay, and the schedule's shape); the number
/// of epochs and the batch size stay the manifest's, because they depend on the dataset's size.
public enum TrainingRecipe: String, Sendable, Hashable, Codable, CaseIterable, ManifestChoice {
    /// ActionLab's defaults: Adam at 0.001 with a constant rate and no weight decay.
    case actionlab
    /// PYSKL's recipe for ST-GCN, ST-GCN++ and CTR-GCN (Duan et al., "PYSKL: Towards Good Practices
    /// for Skeleton Action Recognition", ACM MM 2022; its `configs/stgcn++/*/j.py`): SGD with
    /// momentum 0.9 and Nesterov momentum, learning rate 0.1, weight decay 5e-4, cosine annealing
    /// to 0. PYSKL anneals once per iteration (`by_epoch=False`); ActionLab once per epoch. PYSKL's
    /// rate 0.1 is for 128 windows per step (8 GPUs × 16).
    case pyskl

    /// The training configuration a manifest that states only `recipe` reads: ``TrainingConfiguration``'s
    /// defaults with this recipe's optimizer and schedule.
    public var configuration: TrainingConfiguration {
        var configuration = TrainingConfiguration()
        configuration.recipe = self
        switch self {
        case .actionlab:
            break
        case .pyskl:
            configuration.optimizer = .sgd
            configuration.learningRate = 0.1
            configuration.momentum = 0.9
            configuration.nesterov = true
            configuration.weightDecay = 0.0005
            configuration.schedule = ScheduleConfiguration(kind: .cosine, minimumLearningRate: 0)
        }
        return configuration
    }
}

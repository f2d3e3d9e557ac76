/// Follows one person through a clip when a frame shows several: the person chosen in a frame is
/// the one nearest to the previous frame's choice, and the tracker says when it loses them.
///
/// The rule, frame by frame:
/// - While nobody is followed, the most prominent person (``DetectedPerson/mostProminent(among:)``,
///   the largest keypoint box) is chosen and followed from then on.
/// - Otherwise each person's distance to the followed one is the mean Euclidean distance, in
///   normalized image units, between the joints detected in both (``distance(_:_:)``). The
///   nearest person within ``maximumDistance`` is chosen and becomes the followed one, so a person
///   who walks across the frame is kept however small they are next to someone else.
/// - When people are present but none is within ``maximumDistance`` (the followed person left, or
///   the estimator lost them), the tracker records a ``Loss`` and starts following the most
///   prominent person.
/// - A frame without anyone gives nil and keeps the followed person, to be matched again when they
///   reappear (a few undetected frames are common).
///
/// Choosing the largest box in every frame instead makes the kept skeleton jump between two people
/// of similar size from one frame to the next (issue 15, item 10).
public struct PersonTracker: Sendable {
    /// The default of ``maximumDistance``: a fifth of the frame, far more than a person moves
    /// between two frames, less than two people standing apart usually are.
    public static let defaultMaximumDistance: Float = 0.2

    /// A frame where the followed person was not found among the people present.
    public struct Loss: Sendable, Equatable {
        /// The frame's time, seconds from the first displayed frame.
        public var timestamp: Double
        /// The distance from the followed person to the nearest person present, normalized image
        /// units; infinity when no person shared a detected joint with them.
        public var nearestDistance: Float
    }

    /// The largest mean keypoint distance, in normalized image units, at which a person in the
    /// next frame is taken for the followed one.
    public var maximumDistance: Float
    /// The person chosen last, nil before anyone was seen.
    public private(set) var followed: DetectedPerson?
    /// Every frame where the followed person was lost, in time order.
    public private(set) var losses: [Loss] = []

    /// Creates a tracker that follows nobody yet.
    /// - Parameter maximumDistance: See ``maximumDistance``; > 0.
    public init(maximumDistance: Float = Self.defaultMaximumDistance) {
        self.maximumDistance = maximumDistance
    }

    /// The person to keep in one frame, by the rule above.
    /// - Parameters:
    ///   - people: Everyone the estimator found in the frame.
    ///   - timestamp: The frame's time in seconds, recorded with a ``Loss``.
    /// - Returns: The chosen person, or nil when nobody with a detected joint is present.
    public mutating func select(among people: [DetectedPerson], at timestamp: Double) -> DetectedPerson? {
        let present = people.filter { $0.keypoints.contains(where: \.isDetected) }
        guard !present.isEmpty else { return nil }
        if let followed {
            var nearest: (person: DetectedPerson, distance: Float)?
            for person in present {
                let distance = Self.distance(followed, person)
                if distance < nearest?.distance ?? .infinity { nearest = (person, distance) }
            }
            if let nearest, nearest.distance <= maximumDistance {
                self.followed = nearest.person
                return nearest.person
            }
            losses.append(Loss(timestamp: timestamp, nearestDistance: nearest?.distance ?? .infinity))
        }
        followed = DetectedPerson.mostProminent(among: present)
        return followed
    }

    /// The mean Euclidean distance between the joints detected in both `a` and `b`, in normalized
    /// image units; infinity when they share no detected joint.
    public static func distance(_ a: DetectedPerson, _ b: DetectedPerson) -> Float {
        var sum: Float = 0
        var count = 0
        for (first, second) in zip(a.keypoints, b.keypoints) where first.isDetected && second.isDetected {
            let dx = first.x - second.x, dy = first.y - second.y
            sum += (dx * dx + dy * dy).squareRoot()
            count += 1
        }
        return count == 0 ? .infinity : sum / Float(count)
    }
}

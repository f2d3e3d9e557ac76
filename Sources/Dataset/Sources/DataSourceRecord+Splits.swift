extension DataSourceRecord {
    /// The records with ``splits`` filled in from where each file's recordings ended up.
    ///
    /// A record's recordings are those its file gave (``splits`` holds them under the record's
    /// role while the files are read). A training file's recording is looked up in the train and
    /// validation sequences (an automatic validation split moves recordings between them), a
    /// validation or test file's in its own split; a recording found in none (every sequence
    /// dropped by `dataset.labels`) goes under `dropped`.
    ///
    /// - Parameters:
    ///   - records: The records, with the recordings read from each file under its role.
    ///   - splits: The final sequences by split name (`train`, `validation`, `test`).
    /// - Returns: The records in the same order, ``splits`` by final split.
    static func assigningSplits(_ records: [DataSourceRecord], splits: [String: [DatasetSequence]]) -> [DataSourceRecord] {
        let groups = splits.mapValues { Set($0.map(\.group)) }
        return records.map { record in
            var record = record
            let candidates = record.role == "train" ? ["train", "validation"] : [record.role]
            var membership: [String: [String]] = [:]
            for group in record.splits?[record.role] ?? [] {
                let split = candidates.first { groups[$0]?.contains(group) == true } ?? "dropped"
                membership[split, default: []].append(group)
            }
            record.splits = membership.mapValues { $0.sorted() }
            return record
        }
    }
}

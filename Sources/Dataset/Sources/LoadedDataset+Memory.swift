import FeatureCache
import Foundation

extension LoadedDataset {
    /// Reads every cached sequence into memory, one cache entry file at a time.
    ///
    /// - Throws: `FeatureCacheError` if an entry cannot be read.
    mutating func loadIntoMemory() throws {
        var entries: [URL: CacheEntry] = [:]
        func load(_ sequences: inout [DatasetSequence]) throws {
            for position in sequences.indices {
                guard case .cached(let cached) = sequences[position].frames else { continue }
                if entries[cached.entry] == nil {
                    entries[cached.entry] = try CacheEntry(contentsOf: cached.entry)
                }
                guard let entry = entries[cached.entry], entry.sequences.indices.contains(cached.index) else {
                    throw FeatureCacheError.malformedEntry(
                        file: cached.entry.path, object: "/sequences", reason: "no sequence \(cached.index)")
                }
                sequences[position].frames = .loaded(entry.sequences[cached.index].sequence)
            }
        }
        try load(&train)
        try load(&validation)
        try load(&test)
    }
}

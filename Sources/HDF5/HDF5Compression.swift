/// Gzip (deflate) compression for a dataset, stored in chunks.
///
/// HDF5 compresses chunk by chunk, so a compressed dataset is always chunked. Any HDF5 reader
/// (h5py, `h5dump`) decompresses deflate transparently; it is HDF5's one always-available filter.
public struct HDF5Compression: Sendable, Equatable {
    /// The deflate level, 0 (store) through 9 (smallest, slowest); zlib's default is 6.
    public var deflateLevel: Int
    /// The shape of one chunk, one length per dataset dimension, each between 1 and that
    /// dimension's length; nil picks chunks of about 256 KiB by splitting the outer dimensions.
    public var chunkShape: [Int]?

    /// Creates compression settings.
    /// - Parameters:
    ///   - deflateLevel: 0 through 9; checked when the dataset is created.
    ///   - chunkShape: explicit chunk dimensions, or nil for an automatic choice.
    public init(deflateLevel: Int = 4, chunkShape: [Int]? = nil) {
        self.deflateLevel = deflateLevel
        self.chunkShape = chunkShape
    }

    /// Deflate level 4 with automatic chunks: a good speed/size balance for keypoints.
    public static let gzip = HDF5Compression()

    /// Chunk dimensions for a dataset of `shape` with `elementSize`-byte elements: whole trailing
    /// dimensions, with the leading dimensions halved until a chunk is at most `targetBytes`.
    static func automaticChunkShape(for shape: [Int], elementSize: Int, targetBytes: Int = 256 * 1024) -> [Int] {
        var chunk = shape.map { max(1, $0) }
        var index = 0
        while index < chunk.count, chunk.reduce(elementSize, *) > targetBytes {
            if chunk[index] > 1 {
                chunk[index] = (chunk[index] + 1) / 2
            } else {
                index += 1
            }
        }
        return chunk
    }
}

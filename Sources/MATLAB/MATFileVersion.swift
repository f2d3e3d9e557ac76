/// The version of a MAT-file's format.
///
/// MAT 5 (MATLAB 5.0 to 7.2, `save -v7`) is MathWorks' binary format of tagged data elements,
/// optionally zlib-compressed per variable. MAT 7.3 (`save -v7.3`) is an HDF5 file with a 512-byte
/// user block. Reference: MathWorks, "MAT-File Format" (matfile_format.pdf); libmatio's `mat_ft`.
public enum MATFileVersion: Sendable, Hashable, CaseIterable {
    /// MATLAB's version 5 format (also written by MATLAB 7 with `-v7`).
    case mat5
    /// MATLAB's version 7.3 format, stored as HDF5.
    case mat73
}

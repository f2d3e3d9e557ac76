/// Keeps the memory of freed tensors in the C heap for the next training step, instead of giving
/// it back to the kernel and faulting it in again.
///
/// Every step allocates and frees the same activations and gradients (megabytes each). With
/// glibc's defaults a freed block above its adaptive mmap threshold is unmapped, and the heap's
/// free top beyond twice that threshold is trimmed, so the next step touches fresh pages: about
/// 100 MB of page faults and kernel zeroing a `ctrgcn-small` step (5–10 % of its time). Setting
/// `M_MMAP_THRESHOLD` to glibc's largest, 32 MiB, and `M_TRIM_THRESHOLD` to 1 GiB (`mallopt(3)`)
/// keeps them; the peak resident memory is the same, memory is only held after the peak.
/// ``BLAS`` applies them once per process, on the first BLAS call; if glibc refuses them, its
/// defaults stay, which are only slower.
enum HeapRetention {
    /// glibc's largest mmap threshold on 64-bit systems (`DEFAULT_MMAP_THRESHOLD_MAX`), 32 MiB.
    static let mmapThreshold: Int32 = 32 << 20
    /// The free heap top kept before trimming, 1 GiB.
    static let trimThreshold: Int32 = 1 << 30
}

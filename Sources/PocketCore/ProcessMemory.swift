#if canImport(Glibc)
import PocketMalloc
#endif

/// Process-wide memory settings, applied once by the executable before any work starts.
public enum ProcessMemory {
    /// The size from which an allocation gets pages of its own, handed back to the system when freed.
    public static let ownPagesThreshold: Int32 = 128 * 1024

    /// Makes freed transfer buffers leave the process at once.
    ///
    /// glibc raises its mmap threshold each time a large block is freed, so after the first
    /// megabyte-sized buffer (an unzip chunk, a download chunk) every later one comes from a
    /// thread's arena and stays there when freed, one arena per thread that ever held one. Fixing
    /// the threshold keeps an install's peak memory at what is in use, not what was ever in use.
    /// Elsewhere (macOS, musl) this does nothing.
    public static func returnLargeBlocksToSystem() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, ownPagesThreshold)
        #endif
    }

    /// Hands the free pages the threads' arenas still hold back to the system, after work that
    /// used many threads at once (an install's checks), so the next step does not stack its own
    /// memory on theirs. Elsewhere (macOS, musl) this does nothing.
    public static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}

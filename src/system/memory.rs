//! How the allocator is asked to keep a client run small.

/// Tunes glibc's malloc before the request workers start:
///
/// - at most two arenas (its default is eight per core). Each worker thread would otherwise
///   get an arena of its own, and memory freed there (a body read, the records parsed from it)
///   is kept for that thread instead of being reused by the next: on the ten-year
///   `report --chain all` that is about 3 MiB of the peak RSS, for no measurable time on 2
///   cores. Arenas made before the call stay; only new threads share.
/// - blocks of 64 KiB and more (a response body, one answer's records, hyper's read buffers)
///   mapped on their own and given back to the system when freed. glibc's own threshold starts
///   at 128 KiB and rises to the largest such block freed, after which bodies come from the
///   heap and their room stays in the process; against a server that sends eight uncompressed
///   ten-year bodies at once, that is 1.5 MiB of peak RSS (BENCHMARKS.md).
///
/// Nothing to do on other C libraries.
pub(crate) fn small_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets tunables of glibc's allocator; M_ARENA_MAX and
    // M_MMAP_THRESHOLD with these values (positive, the latter under HEAP_MAX_SIZE / 2) are
    // documented for any time in a process's life, threads running or not.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 * 1024);
    }
}

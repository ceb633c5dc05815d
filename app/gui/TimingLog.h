#pragma once

namespace kl::app {

/// With KL_TIMING_LOG=1 in the environment, the GUI prints when the steps of opening a task happen, measured
/// from the start of the process (the kernel's record of it, so the loading of libraries before main() counts):
///
///     kernellens: run delivered at 1840 ms
///     kernellens: run shown at 1862 ms (22 ms on the GUI thread)
///     kernellens: first timeline paint at 1871 ms
///
/// and, between "run delivered" and "run shown", how long each step of installing the run took on the GUI
/// thread (phase()): "kernellens: GUI thread: timeline and plots installed 0.41 ms".
///
/// Otherwise it prints nothing. For measuring only (docs/simulator.md, "Benchmarks").
class TimingLog {
public:
    [[nodiscard]] static bool enabled();
    /// Milliseconds since the process started (whatever the log's state).
    [[nodiscard]] static long long msSinceProcessStart();
    /// Prints "kernellens: WHAT at N ms" on stderr when enabled.
    static void mark(const char* what);
    /// Prints "kernellens: GUI thread: WHAT N ms", the time since the last mark() or phase(), when enabled.
    static void phase(const char* what);
};

} // namespace kl::app

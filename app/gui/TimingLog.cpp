#include "gui/TimingLog.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include <unistd.h>

namespace kl::app {

namespace {

/// The process's start in seconds since boot: field 22 of /proc/self/stat, in clock ticks.
double processStartSeconds() {
    std::ifstream in("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')'); // the command name may hold spaces
    if (close == std::string::npos) {
        return -1;
    }
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
    }
    const long ticks = ::sysconf(_SC_CLK_TCK);
    return ticks > 0 ? std::strtod(field.c_str(), nullptr) / static_cast<double>(ticks) : -1;
}

/// mark() is called from workers too (RunHeadStart): the lines and the last step are kept whole under one lock.
std::mutex& logLock() {
    static std::mutex lock;
    return lock;
}

/// When the last mark() or phase() was printed.
std::chrono::steady_clock::time_point& lastStep() {
    static std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
    return at;
}

} // namespace

bool TimingLog::enabled() {
    static const bool on = [] {
        const char* v = std::getenv("KL_TIMING_LOG");
        return v != nullptr && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
    }();
    return on;
}

long long TimingLog::msSinceProcessStart() {
    static const double start = processStartSeconds();
    timespec now{};
    ::clock_gettime(CLOCK_BOOTTIME, &now);
    const double seconds = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
    return start < 0 ? -1 : static_cast<long long>((seconds - start) * 1000.0);
}

void TimingLog::mark(const char* what) {
    if (enabled()) {
        const std::lock_guard lock(logLock());
        std::fprintf(stderr, "kernellens: %s at %lld ms\n", what, msSinceProcessStart());
        std::fflush(stderr);
        lastStep() = std::chrono::steady_clock::now();
    }
}

void TimingLog::phase(const char* what) {
    if (enabled()) {
        const std::lock_guard lock(logLock());
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "kernellens: GUI thread: %s %.2f ms\n", what,
                     std::chrono::duration<double, std::milli>(now - lastStep()).count());
        std::fflush(stderr);
        lastStep() = std::chrono::steady_clock::now();
    }
}

} // namespace kl::app

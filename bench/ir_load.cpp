// kl_bench_ir_load: how long a Kernel IR file takes to load and how much memory the loaded program holds, for
// either form (docs/kernel-ir.md). Prints per file: instructions, file bytes per instruction, the median and best
// load time of REPEAT loads, instructions per second (wall and CPU time), KernelIr heap bytes per instruction
// (KernelIr::memoryBytes: instructions, pools and buffers), and the process's peak RSS at the end. The machine is
// shared: take the median of several runs. --serial reads a binary IR on one thread whatever its size (to compare
// with the reader's second thread, ir/IrBinary.h).
//
//   kl_bench_ir_load [--repeat N] [--serial] FILE...
#include "ir/IrBinary.h"
#include "ir/IrLoader.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

/// This process's CPU time: on a shared machine the steadier figure (wall time includes waiting for a core).
double cpuNow() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 3;
    bool serial = false;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--serial") {
            serial = true;
        } else {
            files.push_back(arg);
        }
    }
    if (files.empty()) {
        fmt::print(stderr, "usage: kl_bench_ir_load [--repeat N] [--serial] FILE...\n");
        return 2;
    }
    for (const std::string& file : files) {
        std::vector<double> seconds;
        std::vector<double> cpuSeconds;
        std::size_t instructions = 0;
        std::size_t memory = 0;
        for (int r = 0; r < repeat; ++r) {
            const auto start = std::chrono::steady_clock::now();
            const double cpuStart = cpuNow();
            auto ir = serial ? kl::sim::BinaryIrReader::loadFile(file, SIZE_MAX) : kl::sim::IrLoader::loadFile(file);
            cpuSeconds.push_back(cpuNow() - cpuStart);
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            if (!ir) {
                fmt::print(stderr, "{}\n", kl::formatError(ir.error()));
                return 1;
            }
            instructions = ir->instructions().size();
            memory = ir->memoryBytes();
        }
        std::ranges::sort(seconds);
        std::ranges::sort(cpuSeconds);
        const double median = seconds[seconds.size() / 2];
        const double cpuMedian = cpuSeconds[cpuSeconds.size() / 2];
        const double n = static_cast<double>(std::max<std::size_t>(instructions, 1));
        fmt::print("{}: {} instructions, {:.0f} file bytes/instr, load median {:.3f} s best {:.3f} s ({:.2f} M "
                   "instr/s), CPU median {:.3f} s ({:.2f} M instr/s), IR in memory {:.1f} bytes/instr\n",
                   std::filesystem::path(file).filename().string(), instructions,
                   static_cast<double>(std::filesystem::file_size(file)) / n, median, seconds.front(), n / median / 1e6,
                   cpuMedian, n / cpuMedian / 1e6, static_cast<double>(memory) / n);
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    fmt::print("peak RSS {:.1f} MB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}

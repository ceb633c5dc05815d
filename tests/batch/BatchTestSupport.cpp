#include "BatchTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <stdlib.h>
#include <sys/wait.h>

namespace kl::core::batch::test {

Scratch::Scratch() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kl-batch-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        ADD_FAILURE() << "cannot create a scratch folder";
    }
    m_path = pattern;
}

Scratch::~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

std::filesystem::path writeTask(const std::filesystem::path& dir, const std::string& name, const std::string& prelude) {
    const auto folder = dir / name;
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "task.json") << R"({"format": 1, "title": ")" << name
                                        << R"(", "kernel_file": "kernel.py", "kernel": "copy_through",
  "args": [{"name": "a", "shape": [128, 64], "dtype": "float32"}]})";
    std::ofstream(folder / "kernel.py") << "import nki\nimport nki.isa as nisa\nimport nki.language as nl\n\n\n"
                                           "@nki.jit\ndef copy_through(a):\n"
                                        << (prelude.empty() ? "" : "    " + prelude + "\n")
                                        << "    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n"
                                           "    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)\n"
                                           "    nisa.dma_copy(dst=t, src=a)\n"
                                           "    nisa.dma_copy(dst=out, src=t)\n"
                                           "    return out\n";
    return folder;
}

CliRun batchCli(const std::string& args) {
    CliRun r;
    FILE* pipe = ::popen((std::string(KL_CLI) + " batch " + args + " 2>&1").c_str(), "r");
    if (pipe == nullptr) {
        return r;
    }
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
        r.output.append(buffer, n);
    }
    const int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

} // namespace kl::core::batch::test

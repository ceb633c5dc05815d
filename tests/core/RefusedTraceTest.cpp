// A run whose front end writes an IR the loader refuses (a front-end fault, not the kernel's): the message
// names the kernel and what the loader said, not the scratch file that is gone when the run returns. The front
// end here is a stand-in (KL_DATA_DIR) that follows the report protocol but writes bytes that are no IR.
#include "TestSupport.h"

#include "run/RunPipeline.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace kl::core {
namespace {

namespace fs = std::filesystem;

TEST(RefusedTrace, NamesTheKernelAndTheLoadersReasonNotTheScratchFile) {
    test::TempDir dir;
    const fs::path data = dir.path() / "data";
    fs::create_directories(data / "resources");
    fs::create_directories(data / "sim" / "frontend");
    std::ofstream(data / "sim" / "frontend" / "kltrace_main.py")
        << "import json, os, sys\n"
           "nonce = sys.stdin.readline().strip()\n"
           "fd = int(sys.argv[sys.argv.index('--output-fd') + 1])\n"
           "junk = b'not a kernel IR at all'\n"
           "os.write(fd, junk)\n"
           "print(json.dumps({'nonce': nonce, 'done': {'bytes': len(junk)}}))\n";
    const fs::path kernel = dir.path() / "kernel.py";
    std::ofstream(kernel) << "def k(a):\n    return a\n";
    ::setenv("KL_DATA_DIR", data.c_str(), 1);
    RunRequest request;
    request.trace.kernelFile = kernel;
    request.trace.argSpecs = {"a=128x4:float32"};
    auto run = traceAndSimulate(request);
    ::unsetenv("KL_DATA_DIR");
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().file, kernel.string());
    EXPECT_NE(run.error().message.find("did not load"), std::string::npos) << run.error().message;
    EXPECT_EQ(run.error().message.find("kernellens-"), std::string::npos)
        << "names a scratch file: " << run.error().message;
    EXPECT_NE(run.error().hint.find("--format json"), std::string::npos) << run.error().hint;
}

} // namespace
} // namespace kl::core

// Which profile a run uses when nothing names one: trn2 for nki.* kernels, trn1 for legacy neuronxcc.nki
// kernels; a task's `hardware` wins over that default and --hw over both. Checked through the code paths
// people use: `kernellens-cli simulate` and `export-trace` (called in-process), and core::traceAndSimulate
// (the GUI's and the report's runs). The --ir cases use the checked-in IR of the two vector-add examples;
// the task cases trace copies of those examples with the front end.
#include "TestSupport.h"

#include "cli/Commands.h"
#include "run/RunPipeline.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace kl::core {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kGoldenIr = std::string(KL_SOURCE_DIR) + "/tests/golden/timeline/";

struct CliResult {
    int code;
    std::string out;
    std::string err;
};

CliResult simulate(const std::vector<std::string>& args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runSimulateCommand(args);
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    return {code, out, err};
}

/// The summary's first two lines: "Kernel K on P" and "Hardware          P (why)".
std::string head(const std::string& summary) {
    const auto first = summary.find('\n');
    return first == std::string::npos ? summary : summary.substr(0, summary.find('\n', first + 1));
}

class DefaultHardware : public ::testing::Test {
protected:
    /// A copy of examples/<example> whose task.json has `hardware` set to `hardware` (removed when empty).
    std::string task(const std::string& example, const std::string& hardware) {
        const fs::path to = m_dir.path() / (example + (hardware.empty() ? "-nohw" : "-" + hardware));
        fs::copy(fs::path(KL_SOURCE_DIR) / "examples" / example, to, fs::copy_options::recursive);
        Json j = Json::parse(std::ifstream(to / "task.json"));
        j.erase("hardware");
        if (!hardware.empty()) {
            j["hardware"] = hardware;
        }
        std::ofstream(to / "task.json") << j.dump(2);
        return to.string();
    }
    test::TempDir m_dir;
};

TEST_F(DefaultHardware, SimulateIrPicksByApiAndSaysWhy) {
    const auto nki = simulate({"--ir", kGoldenIr + "vector_add_nki.ir.json"});
    ASSERT_EQ(nki.code, 0) << nki.err;
    EXPECT_EQ(head(nki.out), "Kernel nki_vector_add on trn2\nHardware          trn2 (default for nki.* kernels)");

    const auto legacy = simulate({"--ir", kGoldenIr + "vector_add_legacy.ir.json"});
    ASSERT_EQ(legacy.code, 0) << legacy.err;
    EXPECT_EQ(head(legacy.out),
              "Kernel nki_vector_add on trn1\nHardware          trn1 (default for legacy neuronxcc.nki kernels)");
}

TEST_F(DefaultHardware, AnIrWithoutApiKeepsTrn1AndSaysSo) {
    Json ir = Json::parse(std::ifstream(kGoldenIr + "vector_add_nki.ir.json"));
    ir["kernel"].erase("api");
    const std::string file = m_dir.file("noapi.ir.json");
    std::ofstream(file) << ir.dump();
    const auto r = simulate({"--ir", file});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(head(r.out).find("on trn1\nHardware          trn1 (default: the IR does not say"), std::string::npos)
        << r.out;
}

TEST_F(DefaultHardware, HwFlagWinsOverTheDefault) {
    const auto r = simulate({"--ir", kGoldenIr + "vector_add_nki.ir.json", "--hw", "trn3"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(head(r.out), "Kernel nki_vector_add on trn3\nHardware          trn3 (--hw)");
}

TEST_F(DefaultHardware, UnknownHwIsAUsageErrorListingTheProfiles) {
    const auto r = simulate({"--ir", kGoldenIr + "vector_add_nki.ir.json", "--hw", "trn9"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("trn1, trn2, trn3"), std::string::npos) << r.err;
}

TEST_F(DefaultHardware, TaskHardwareWinsOverTheApiDefaultAndHwWinsOverTheTask) {
    const std::string pinned = task("vector_add_nki", "trn1");
    const auto byTask = simulate({pinned});
    ASSERT_EQ(byTask.code, 0) << byTask.err;
    EXPECT_EQ(head(byTask.out), "Kernel nki_vector_add on trn1\nHardware          trn1 (task.json)");

    const auto byFlag = simulate({pinned, "--hw", "trn3"});
    ASSERT_EQ(byFlag.code, 0) << byFlag.err;
    EXPECT_EQ(head(byFlag.out), "Kernel nki_vector_add on trn3\nHardware          trn3 (--hw)");
}

TEST_F(DefaultHardware, TaskWithoutHardwareFollowsTheKernelApi) {
    const auto nki = simulate({task("vector_add_nki", "")});
    ASSERT_EQ(nki.code, 0) << nki.err;
    EXPECT_EQ(head(nki.out), "Kernel nki_vector_add on trn2\nHardware          trn2 (default for nki.* kernels)");

    const auto legacy = simulate({task("vector_add_legacy", "")});
    ASSERT_EQ(legacy.code, 0) << legacy.err;
    EXPECT_EQ(head(legacy.out),
              "Kernel nki_vector_add on trn1\nHardware          trn1 (default for legacy neuronxcc.nki kernels)");
}

TEST_F(DefaultHardware, TraceAndSimulateRecordsTheChoice) {
    RunRequest request;
    request.trace.taskDir = task("vector_add_nki", "");
    auto byApi = traceAndSimulate(request);
    ASSERT_TRUE(byApi.has_value()) << formatError(byApi.error());
    EXPECT_EQ(byApi->hardware.spec, "trn2");
    EXPECT_EQ(byApi->hardware.reason, sim::HardwareReason::NkiDefault);
    EXPECT_EQ(byApi->result->hardwareName, "trn2");

    request.trace.taskDir = task("vector_add_legacy", "trn3");
    auto byTask = traceAndSimulate(request);
    ASSERT_TRUE(byTask.has_value()) << formatError(byTask.error());
    EXPECT_EQ(byTask->hardware.reason, sim::HardwareReason::Task);
    EXPECT_EQ(byTask->result->hardwareName, "trn3");

    request.hardware = "trn2";
    auto requested = traceAndSimulate(request);
    ASSERT_TRUE(requested.has_value()) << formatError(requested.error());
    EXPECT_EQ(requested->hardware.reason, sim::HardwareReason::Requested);
    EXPECT_EQ(requested->result->hardwareName, "trn2");
}

TEST_F(DefaultHardware, TheFrontEndChecksTileSizesAgainstTheTasksHardware) {
    // A 208,000-byte SBUF tile per partition: more than trn1 holds, less than trn2. The task names trn2, so the
    // front end must check against trn2 (not its own trn1 default) and the run goes through.
    const fs::path dir = m_dir.path() / "big_tile";
    fs::create_directories(dir);
    std::ofstream(dir / "kernel.py") << "import nki\nimport nki.language as nl\n\n\n@nki.jit\ndef big(a):\n"
                                        "    t = nl.ndarray((128, 52000), dtype=nl.float32, buffer=nl.sbuf)\n"
                                        "    nl.store(a[0:128, 0:512], value=nl.load(a[0:128, 0:512]))\n"
                                        "    return a\n";
    Json task = {{"format", 1},
                 {"kernel_file", "kernel.py"},
                 {"kernel", "big"},
                 {"args", Json::array({{{"name", "a"}, {"shape", {128, 512}}, {"dtype", "float32"}}})},
                 {"hardware", "trn2"}};
    std::ofstream(dir / "task.json") << task.dump(2);
    RunRequest request;
    request.trace.taskDir = dir.string();
    auto onTrn2 = traceAndSimulate(request);
    ASSERT_TRUE(onTrn2.has_value()) << formatError(onTrn2.error());
    EXPECT_EQ(onTrn2->result->hardwareName, "trn2");

    task["hardware"] = "trn1";
    std::ofstream(dir / "task.json") << task.dump(2);
    auto onTrn1 = traceAndSimulate(request);
    ASSERT_FALSE(onTrn1.has_value());
    EXPECT_NE(onTrn1.error().message.find("a partition holds"), std::string::npos) << onTrn1.error().message;
}

TEST_F(DefaultHardware, AProfileFileTheTaskNamesOutsideItsFolderIsNotShownToTheKernel) {
    // The front end reads the named profile inside the sandbox, so the file is mounted there: task.json must not
    // be a way to show the kernel a file outside its folder. The kernel looks for it and fails if it sees it.
    const fs::path outside = m_dir.path() / "elsewhere" / "profile.json";
    fs::create_directories(outside.parent_path());
    fs::copy_file(fs::path(KL_SOURCE_DIR) / "resources" / "hw" / "trn2.json", outside);
    const fs::path dir = m_dir.path() / "peek";
    fs::create_directories(dir);
    std::ofstream(dir / "kernel.py") << "import nki\nimport nki.language as nl\n\n\n@nki.jit\ndef peek(a):\n"
                                        "    try:\n        open("
                                     << Json(outside.string()).dump()
                                     << ").read()\n    except OSError:\n"
                                        "        nl.store(a[0:128, 0:512], value=nl.load(a[0:128, 0:512]))\n"
                                        "        return a\n"
                                        "    raise RuntimeError('the profile file is visible in the sandbox')\n";
    const Json task = {{"format", 1},
                       {"kernel_file", "kernel.py"},
                       {"kernel", "peek"},
                       {"args", Json::array({{{"name", "a"}, {"shape", {128, 512}}, {"dtype", "float32"}}})},
                       {"hardware", outside.string()}};
    std::ofstream(dir / "task.json") << task.dump(2);
    RunRequest request;
    request.trace.taskDir = dir.string();
    auto run = traceAndSimulate(request);
    ASSERT_TRUE(run.has_value()) << formatError(run.error());
    EXPECT_EQ(run->hardware.reason, sim::HardwareReason::Task); // the simulator still runs on the task's profile
}

TEST_F(DefaultHardware, ExportTraceUsesTheSameRule) {
    const std::string out = m_dir.file("trace.json");
    ::testing::internal::CaptureStderr();
    const int code = kl::app::runExportTraceCommand({"--ir", kGoldenIr + "vector_add_nki.ir.json", "-o", out});
    const std::string err = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(code, 0) << err;
    EXPECT_NE(err.find("on trn2 (default for nki.* kernels)"), std::string::npos) << err;
    const Json trace = Json::parse(std::ifstream(out));
    EXPECT_EQ(trace["otherData"]["hardware"], "trn2");
}

} // namespace
} // namespace kl::core

// The fuzz harness catches what it must (a crash, a hang, an escaping exception), cases are reproducible, the
// seeds are valid files, and every input the fuzzer ever found (tests/fuzz/regressions/FORMAT) now loads to a
// clean error naming the file.
#include "FuzzHarness.h"
#include "FuzzTargets.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <set>
#include <stdexcept>

namespace kl::fuzz {
namespace {

namespace fs = std::filesystem;

void hostile(std::string_view input) {
    if (input == "crash") {
        std::raise(SIGSEGV);
    }
    if (input == "hang") {
        for (volatile bool spin = true; spin;) {
        }
    }
    if (input == "throw") {
        throw std::runtime_error("escaped the loader");
    }
}

TEST(FuzzHarness, ReportsCrashesHangsAndExceptions) {
    EXPECT_EQ(runGuarded(hostile, "fine"), "");
    EXPECT_NE(runGuarded(hostile, "crash").find("crash: signal 11"), std::string::npos);
    EXPECT_NE(runGuarded(hostile, "hang", 1).find("hang"), std::string::npos);
    EXPECT_EQ(runGuarded(hostile, "throw"), "exception: escaped the loader");
}

TEST(FuzzHarness, SavesEachFailingCaseAndGoesOn) {
    const fs::path out = fs::temp_directory_path() / ("kl-fuzz-harness-test-" + std::to_string(::getpid()));
    RunOptions options;
    options.cases = 40;
    options.batch = 16;
    options.failureDir = out;
    options.extension = ".bin";
    // Crashes on every case whose input has an odd length: failures are spread over several batches.
    const Target target = [](std::string_view input) {
        if (input.size() % 2 == 1) {
            std::raise(SIGABRT);
        }
    };
    const Mutator mutator(false);
    const std::vector<std::string> seeds{"ab", "abc"};
    const RunReport report = runFuzz(target, seeds, mutator, options);
    EXPECT_EQ(report.cases, 40u);
    std::size_t expected = 0;
    for (std::uint64_t i = 0; i < 40; ++i) {
        expected += makeCase(seeds, mutator, options.seed, i).size() % 2;
    }
    ASSERT_GT(expected, 0u);
    ASSERT_EQ(report.failures.size(), expected);
    for (const Failure& f : report.failures) {
        EXPECT_NE(f.what.find("signal 6"), std::string::npos) << f.what;
        ASSERT_TRUE(fs::exists(f.savedInput));
        EXPECT_EQ(fs::file_size(f.savedInput), makeCase(seeds, mutator, options.seed, f.caseIndex).size());
    }
    fs::remove_all(out);
}

TEST(FuzzMutator, CasesAreReproducibleAndVaried) {
    const std::vector<std::string> seeds{R"({"a": [1, 2.5, "x"], "b": {"c": null, "d": true}})"};
    const Mutator mutator(true);
    std::set<std::string> distinct;
    for (std::uint64_t i = 0; i < 200; ++i) {
        const std::string a = makeCase(seeds, mutator, 7, i);
        EXPECT_EQ(a, makeCase(seeds, mutator, 7, i));
        distinct.insert(a);
    }
    EXPECT_GT(distinct.size(), 150u);
    const auto spans = jsonValues(seeds[0]);
    ASSERT_EQ(spans.size(), 8u); // the object, the array and its 3 elements, the inner object, null, true
    EXPECT_EQ(spans[0].kind, JsonSpan::Kind::Object);
    EXPECT_TRUE(jsonValues("{\"a\": [1,").empty());
}

class FuzzFormat : public ::testing::TestWithParam<std::string> {
protected:
    [[nodiscard]] FormatRunner runner() const {
        return FormatRunner(*findFormat(GetParam()),
                            fs::temp_directory_path() / ("kl-fuzz-test-" + GetParam() + std::to_string(::getpid())));
    }
};

TEST_P(FuzzFormat, SeedsAreValidFiles) {
    const FormatRunner r = runner();
    const auto seeds = readFiles("corpus", GetParam());
    ASSERT_FALSE(seeds.empty());
    for (const auto& [path, bytes] : seeds) {
        const auto error = r.feed(bytes);
        EXPECT_FALSE(error) << path << ": " << formatError(*error);
    }
}

TEST_P(FuzzFormat, RegressionsLoadToACleanError) {
    const FormatRunner r = runner();
    for (const auto& [path, bytes] : readFiles("regressions", GetParam())) {
        // In a child first: a regression that crashes again must fail this test, not end it.
        const std::string guarded = runGuarded(r.target(), bytes);
        ASSERT_EQ(guarded, "") << path;
        const auto error = r.feed(bytes);
        ASSERT_TRUE(error) << path << " loads; a regression input must be refused";
        EXPECT_FALSE(error->message.empty()) << path;
        EXPECT_NE(error->code, ErrorCode::Internal) << path << ": " << formatError(*error);
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, FuzzFormat,
                         ::testing::Values("ir", "irbin", "profile", "task", "rubric", "lesson", "review"),
                         [](const auto& info) { return info.param; });

} // namespace
} // namespace kl::fuzz

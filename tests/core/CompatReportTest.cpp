#include "compat/CompatReport.h"
#include "trace/KernelListing.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core {
namespace {

std::vector<CompatResult> sampleResults() {
    CompatResult ok;
    ok.file = "core/cumsum/cumsum.py";
    ok.kernel = "cumsum";
    ok.hardware = "trn2";
    ok.status = CompatStatus::Simulated;
    ok.instructions = 1234;
    ok.simulatedPs = 12'300'000; // 12.3 us
    ok.shapeSource = "test/test_cumsum.py:57";
    ok.seconds = 0.4567;
    CompatResult bad;
    bad.file = "core/rms/rms.py";
    bad.kernel = "rms";
    bad.hardware = "trn2";
    bad.status = CompatStatus::Failed;
    bad.error = Error{ErrorCode::KernelError, "the kernel raised ValueError: no\nmore detail", "rms.py", 41, "fix it"};
    CompatResult traced;
    traced.file = "mm.py";
    traced.kernel = "mm";
    traced.hardware = "trn3";
    traced.status = CompatStatus::TracedOnly;
    traced.error = Error{ErrorCode::Unsupported, "op 'foo' is not modelled", "", 0, ""};
    CompatResult skipped;
    skipped.file = "x.py";
    skipped.kernel = "needs";
    skipped.hardware = "trn2";
    skipped.status = CompatStatus::Skipped;
    skipped.skipReason = "needs arguments: x, w (give a manifest)";
    CompatResult unlisted;
    unlisted.file = "broken.py";
    unlisted.hardware = "trn2";
    unlisted.status = CompatStatus::Failed;
    unlisted.error = Error{ErrorCode::Parse, "invalid syntax", "broken.py", 0, ""};
    return {ok, bad, traced, skipped, unlisted};
}

TEST(CompatReport, Table) {
    const std::string expected =
        "FILE                   KERNEL  STATUS       INSTR       TIME  PROBLEM\n"
        "core/cumsum/cumsum.py  cumsum  simulated    1,234  12.300 us\n"
        "core/rms/rms.py        rms     failed           -          -  rms.py:41: kernel_error: the kernel raised "
        "ValueError: no\n"
        "mm.py                  mm      traced-only      -          -  unsupported: op 'foo' is not modelled\n"
        "x.py                   needs   skipped          -          -  needs arguments: x, w (give a manifest)\n"
        "broken.py              -       failed           -          -  broken.py: parse: invalid syntax\n";
    EXPECT_EQ(CompatReport::table(sampleResults()), expected);
}

TEST(CompatReport, ProgressLines) {
    const auto results = sampleResults();
    CompatJob job;
    job.file = "core/cumsum/cumsum.py";
    job.kernel = "cumsum";
    EXPECT_EQ(CompatReport::progressStart(3, 40, job) + CompatReport::outcome(results[0]),
              "[3/40] core/cumsum/cumsum.py:cumsum ... simulated, 1,234 instr, 12.300 us");
    EXPECT_EQ(CompatReport::outcome(results[1]), "failed: rms.py:41: kernel_error: the kernel raised ValueError: no");
    EXPECT_EQ(CompatReport::outcome(results[3]), "skipped: needs arguments: x, w (give a manifest)");
    job.kernel.clear();
    EXPECT_EQ(CompatReport::progressStart(1, 2, job), "[1/2] core/cumsum/cumsum.py ... ");
}

TEST(CompatReport, SummaryAndExitCode) {
    const CompatSummary s = CompatSummary::of(sampleResults());
    EXPECT_EQ(s.total, 5u);
    EXPECT_EQ(CompatReport::summaryLine(s), "1 simulated, 1 traced-only, 2 failed, 1 skipped");
    EXPECT_EQ(s.exitCode(), 1);
    auto results = sampleResults();
    results.erase(results.begin() + 1, results.begin() + 3); // the failed and the traced-only one
    results.pop_back();
    const CompatSummary clean = CompatSummary::of(results);
    EXPECT_EQ(CompatReport::summaryLine(clean), "1 simulated, 0 failed, 1 skipped");
    EXPECT_EQ(clean.exitCode(), 0); // skipped kernels do not fail the run
    results.erase(results.begin());
    EXPECT_EQ(CompatSummary::of(results).exitCode(), 0);
    EXPECT_EQ(CompatSummary::of({sampleResults()[2]}).exitCode(), 1); // traced-only is not simulated
}

TEST(CompatReport, Json) {
    const auto doc = nlohmann::ordered_json::parse(CompatReport::json("trn2", sampleResults()));
    std::vector<std::string> top;
    for (const auto& [key, value] : doc.items()) {
        top.push_back(key);
    }
    EXPECT_EQ(top, (std::vector<std::string>{"hw", "summary", "results"}));
    EXPECT_EQ(doc["hw"], "trn2");
    EXPECT_EQ(doc["summary"], nlohmann::ordered_json::parse(
                                  R"({"total": 5, "simulated": 1, "traced_only": 1, "failed": 2, "skipped": 1})"));
    ASSERT_EQ(doc["results"].size(), 5u);
    const auto& ok = doc["results"][0];
    std::vector<std::string> keys;
    for (const auto& [key, value] : ok.items()) {
        keys.push_back(key);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"file", "kernel", "status", "hw", "instructions", "simulated_ns", "error",
                                              "skip_reason", "shape_source", "seconds"}));
    EXPECT_EQ(ok["status"], "simulated");
    EXPECT_EQ(ok["instructions"], 1234);
    EXPECT_DOUBLE_EQ(ok["simulated_ns"].get<double>(), 12300.0);
    EXPECT_TRUE(ok["error"].is_null());
    EXPECT_TRUE(ok["skip_reason"].is_null());
    EXPECT_EQ(ok["shape_source"], "test/test_cumsum.py:57");
    EXPECT_DOUBLE_EQ(ok["seconds"].get<double>(), 0.457);
    const auto& bad = doc["results"][1];
    EXPECT_EQ(bad["status"], "failed");
    EXPECT_TRUE(bad["instructions"].is_null());
    EXPECT_TRUE(bad["simulated_ns"].is_null());
    EXPECT_EQ(bad["error"], nlohmann::ordered_json::parse(R"({"code": "kernel_error",
        "message": "the kernel raised ValueError: no\nmore detail", "file": "rms.py", "line": 41, "hint": "fix it"})"));
    EXPECT_TRUE(bad["shape_source"].is_null());
    EXPECT_EQ(doc["results"][2]["status"], "traced-only");
    EXPECT_EQ(doc["results"][2]["hw"], "trn3");
    EXPECT_EQ(doc["results"][3]["skip_reason"], "needs arguments: x, w (give a manifest)");
    EXPECT_TRUE(doc["results"][3]["error"].is_null());
}

TEST(CompatReport, GroupDigits) {
    EXPECT_EQ(CompatReport::groupDigits(0), "0");
    EXPECT_EQ(CompatReport::groupDigits(999), "999");
    EXPECT_EQ(CompatReport::groupDigits(1000), "1,000");
    EXPECT_EQ(CompatReport::groupDigits(1234567), "1,234,567");
}

TEST(KernelListing, ParsesTheFrontEndsList) {
    auto kernels = parseKernelList(R"({"kernels": [{"name": "cumsum", "file": "core/cumsum/cumsum.py", "line": 29,
        "params": [{"name": "x", "has_default": false, "default": null},
                   {"name": "axis", "has_default": true, "default": "-1"}]}]})",
                                   "list");
    ASSERT_TRUE(kernels) << formatError(kernels.error());
    ASSERT_EQ(kernels->size(), 1u);
    const KernelInfo& k = (*kernels)[0];
    EXPECT_EQ(k.name, "cumsum");
    EXPECT_EQ(k.file, "core/cumsum/cumsum.py");
    EXPECT_EQ(k.line, 29);
    ASSERT_EQ(k.params.size(), 2u);
    EXPECT_EQ(k.params[1].defaultText, "-1");
    EXPECT_EQ(k.requiredParameters(), (std::vector<std::string>{"x"}));
}

TEST(KernelListing, RejectsWhatIsNotAList) {
    EXPECT_FALSE(parseKernelList(R"({"error": {"code": "parse"}})", "list"));
    EXPECT_FALSE(parseKernelList("not json", "list"));
    EXPECT_FALSE(parseKernelList(R"({"kernels": [{"line": 3}]})", "list"));
    EXPECT_FALSE(parseKernelList(R"({"kernels": [{"name": "k", "params": [{"has_default": true}]}]})", "list"));
}

} // namespace
} // namespace kl::core

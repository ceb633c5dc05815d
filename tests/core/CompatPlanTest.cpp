#include "TestSupport.h"

#include "compat/CompatPlan.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

namespace kl::core {
namespace {

namespace fs = std::filesystem;

KernelInfo kernel(const std::string& name, std::vector<std::pair<std::string, bool>> params) {
    KernelInfo k;
    k.name = name;
    k.line = 3;
    for (const auto& [p, hasDefault] : params) {
        k.params.push_back(KernelParameter{p, hasDefault, hasDefault ? "1" : ""});
    }
    return k;
}

/// Answers with a fixed kernel list per file name and records the files it was asked about.
struct FakeLister {
    std::map<std::string, Expected<std::vector<KernelInfo>>> byName;
    std::vector<std::string> asked;

    KernelLister lister() {
        return [this](const TraceRequest& r) -> Expected<std::vector<KernelInfo>> {
            asked.push_back(r.kernelFile.filename().string());
            auto it = byName.find(r.kernelFile.filename().string());
            return it == byName.end() ? Expected<std::vector<KernelInfo>>(std::vector<KernelInfo>{}) : it->second;
        };
    }
};

TEST(CompatPlan, ManifestEntryBecomesFrontEndFlags) {
    CompatEntry e;
    e.file = "src/pkg/core/cumsum.py";
    e.kernel = "cumsum";
    e.args = {{"x", {64, 4, 1024}, "bfloat16"}, {"w", {4}, "float32"}};
    e.scalars = {{"axis", "-1"}, {"norm_type", "NormType.RMS_NORM"}};
    e.grid = {2, 2};
    e.packageRoot = "src/pkg";
    e.shapeSource = "test/t.py:57";
    CompatEntry plain;
    plain.file = "b.py";
    plain.kernel = "b";
    plain.hardware = "trn3";
    CompatSettings settings;
    settings.root = "/repo";
    settings.packageRoot = "/elsewhere";
    settings.timeoutSeconds = 30;
    auto jobs = CompatPlan::fromManifest(CompatManifest{"", {e, plain}}, settings, {});
    ASSERT_TRUE(jobs) << formatError(jobs.error());
    ASSERT_EQ(jobs->size(), 2u);
    const CompatJob& j = (*jobs)[0];
    EXPECT_EQ(j.file, "src/pkg/core/cumsum.py");
    EXPECT_EQ(j.kernel, "cumsum");
    EXPECT_EQ(j.hardware, "trn2");
    EXPECT_EQ(j.shapeSource, "test/t.py:57");
    EXPECT_EQ(j.trace.kernelFile, fs::path("/repo/src/pkg/core/cumsum.py"));
    EXPECT_EQ(j.trace.kernelName, "cumsum");
    EXPECT_EQ(j.trace.argSpecs, (std::vector<std::string>{"x=64x4x1024:bfloat16", "w=4:float32"}));
    EXPECT_EQ(j.trace.scalars, (std::vector<std::string>{"axis=-1", "norm_type=NormType.RMS_NORM"}));
    EXPECT_EQ(j.trace.grid, "2x2");
    EXPECT_EQ(j.trace.packageRoot, fs::path("/repo/src/pkg"));
    EXPECT_EQ(j.trace.timeoutSeconds, 30);
    const CompatJob& p = (*jobs)[1];
    EXPECT_EQ(p.hardware, "trn3");
    EXPECT_EQ(p.trace.packageRoot, fs::path("/elsewhere")); // the command's --package-root
    EXPECT_TRUE(p.trace.grid.empty());
}

TEST(CompatPlan, PathsChooseManifestEntriesByComponent) {
    CompatManifest m;
    for (const char* file : {"core/cumsum/cumsum.py", "core/cumsum2/x.py", "ops/mm.py"}) {
        m.entries.push_back(CompatEntry{.file = file, .kernel = "k"});
    }
    auto jobs = CompatPlan::fromManifest(m, CompatSettings{}, {"core/cumsum", "ops/mm.py"});
    ASSERT_TRUE(jobs);
    ASSERT_EQ(jobs->size(), 2u);
    EXPECT_EQ((*jobs)[0].file, "core/cumsum/cumsum.py");
    EXPECT_EQ((*jobs)[1].file, "ops/mm.py");
    auto none = CompatPlan::fromManifest(m, CompatSettings{}, {"core/cumsum/other.py"});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().file, "core/cumsum/other.py");
}

TEST(CompatPlan, KernelsNeedingArgumentsAreSkippedWithTheirNames) {
    test::TempDir tmp;
    test::writeBytes(tmp.file("k.py"), "");
    FakeLister fake;
    fake.byName.emplace("k.py", std::vector<KernelInfo>{kernel("needs", {{"x", false}, {"axis", true}, {"w", false}}),
                                                        kernel("ready", {{"n", true}}), kernel("bare", {})});
    auto jobs = CompatPlan::fromPaths({tmp.file("k.py")}, CompatSettings{}, fake.lister());
    ASSERT_TRUE(jobs) << formatError(jobs.error());
    ASSERT_EQ(jobs->size(), 3u);
    EXPECT_EQ((*jobs)[0].kernel, "needs");
    EXPECT_EQ((*jobs)[0].skipReason, "needs arguments: x, w (give a manifest)");
    EXPECT_EQ((*jobs)[1].kernel, "ready");
    EXPECT_TRUE((*jobs)[1].skipReason.empty());
    EXPECT_EQ((*jobs)[1].trace.kernelName, "ready");
    EXPECT_TRUE((*jobs)[1].trace.argSpecs.empty());
    EXPECT_TRUE((*jobs)[2].skipReason.empty());
    EXPECT_EQ((*jobs)[2].file, fs::path(tmp.file("k.py")).generic_string());
}

TEST(CompatPlan, FolderWalkRunsTasksAsTasksInNameOrder) {
    test::TempDir tmp;
    fs::create_directories(tmp.path() / "b" / "__pycache__");
    fs::create_directories(tmp.path() / ".hidden");
    test::writeBytes(tmp.file("z.py"), "");
    test::writeBytes(tmp.file("a.py"), "");
    test::writeBytes(tmp.file("notes.txt"), "");
    test::writeBytes((tmp.path() / "b" / "m.py").string(), "");
    test::writeBytes((tmp.path() / "b" / "__pycache__" / "m.py").string(), "");
    test::writeBytes((tmp.path() / ".hidden" / "h.py").string(), "");
    (void)test::makeTaskFolder(tmp.path(), "task");
    FakeLister fake;
    fake.byName.emplace("a.py", std::vector<KernelInfo>{kernel("ka", {})});
    fake.byName.emplace("m.py", std::vector<KernelInfo>{kernel("km", {})});
    fake.byName.emplace("z.py", makeError(ErrorCode::KernelError, "import failed", "z.py", 2));
    auto jobs = CompatPlan::fromPaths({tmp.path().string()}, CompatSettings{}, fake.lister());
    ASSERT_TRUE(jobs) << formatError(jobs.error());
    std::vector<std::string> seen;
    for (const CompatJob& j : *jobs) {
        seen.push_back(fs::path(j.file).lexically_relative(tmp.path()).generic_string() + ":" + j.kernel);
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"a.py:ka", "b/m.py:km", "task:nki_matmul", "z.py:"}));
    EXPECT_EQ(fake.asked, (std::vector<std::string>{"a.py", "m.py", "z.py"})); // kernel.py of the task: not listed
    EXPECT_EQ((*jobs)[2].trace.taskDir, tmp.path() / "task");
    ASSERT_TRUE((*jobs)[3].error);
    EXPECT_EQ((*jobs)[3].error->line, 2);
}

TEST(CompatPlan, NamedFileWithoutKernelsIsReported) {
    test::TempDir tmp;
    test::writeBytes(tmp.file("empty.py"), "");
    FakeLister fake;
    auto jobs = CompatPlan::fromPaths({tmp.file("empty.py")}, CompatSettings{}, fake.lister());
    ASSERT_TRUE(jobs);
    ASSERT_EQ(jobs->size(), 1u);
    EXPECT_EQ((*jobs)[0].skipReason, "no NKI kernels in this file");
}

TEST(CompatPlan, BadPathsAreErrors) {
    test::TempDir tmp;
    test::writeBytes(tmp.file("notes.txt"), "");
    FakeLister fake;
    auto missing = CompatPlan::fromPaths({tmp.file("nope.py")}, CompatSettings{}, fake.lister());
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
    EXPECT_EQ(missing.error().file, tmp.file("nope.py"));
    auto text = CompatPlan::fromPaths({tmp.file("notes.txt")}, CompatSettings{}, fake.lister());
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().code, ErrorCode::InvalidArgument);
}

TEST(CompatPlan, BrokenTaskFolderBecomesAFailedJob) {
    test::TempDir tmp;
    fs::create_directories(tmp.path() / "task");
    test::writeBytes((tmp.path() / "task" / "task.json").string(), "{not json");
    FakeLister fake;
    auto jobs = CompatPlan::fromPaths({(tmp.path() / "task").string()}, CompatSettings{}, fake.lister());
    ASSERT_TRUE(jobs);
    ASSERT_EQ(jobs->size(), 1u);
    ASSERT_TRUE((*jobs)[0].error);
    EXPECT_EQ((*jobs)[0].error->code, ErrorCode::Parse);
}

} // namespace
} // namespace kl::core

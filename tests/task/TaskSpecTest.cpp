#include "task/TaskSpec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using kl::ErrorCode;

namespace {

class TaskSpecTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("kl-taskspec-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    void writeTask(const std::string& text) { std::ofstream(m_dir / "task.json") << text; }
    fs::path m_dir;
};

TEST_F(TaskSpecTest, ReadsEveryField) {
    writeTask(R"({"format": 1, "title": "Add", "kernel_file": "k.py", "kernel": "add", "cuda_file": "k.cu",
                 "cuda_kernel": "add_kernel", "args": [{"name": "a", "shape": [128, 512], "dtype": "float32"}],
                 "grid": [2, 2], "hardware": "trn2"})");
    auto spec = kl::core::loadTaskSpec(m_dir);
    ASSERT_TRUE(spec) << spec.error().message;
    EXPECT_EQ(spec->title, "Add");
    EXPECT_EQ(spec->kernelFile, fs::absolute(m_dir) / "k.py");
    EXPECT_EQ(spec->cudaFile, fs::absolute(m_dir) / "k.cu");
    EXPECT_EQ(spec->kernelName, "add");
    ASSERT_EQ(spec->args.size(), 1u);
    EXPECT_EQ(spec->args[0].shape, (std::vector<long long>{128, 512}));
    EXPECT_EQ(spec->grid, (std::vector<int>{2, 2}));
    EXPECT_EQ(spec->hardware, "trn2");
}

TEST_F(TaskSpecTest, TitleDefaultsToFolderName) {
    writeTask(R"({"kernel_file": "k.py", "kernel": "add", "args": []})");
    auto spec = kl::core::loadTaskSpec(m_dir);
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->title, m_dir.filename().string());
    EXPECT_TRUE(spec->cudaFile.empty());
    EXPECT_EQ(spec->grid, std::vector<int>{1});
}

TEST_F(TaskSpecTest, ExtraFilesInsideTheFolder) {
    fs::create_directories(m_dir / "pkg" / "util");
    std::ofstream(m_dir / "pkg" / "util" / "helpers.py") << "x = 1\n";
    std::ofstream(m_dir / "reference.py") << "y = 2\n";
    writeTask(R"({"kernel_file": "k.py", "kernel": "k", "args": [],
                 "extra_files": ["pkg/util/helpers.py", "./reference.py"]})");
    auto spec = kl::core::loadTaskSpec(m_dir);
    ASSERT_TRUE(spec) << spec.error().message;
    ASSERT_EQ(spec->extraFiles.size(), 2u);
    EXPECT_EQ(spec->extraFiles[0], fs::absolute(m_dir) / "pkg" / "util" / "helpers.py");
    EXPECT_EQ(spec->extraFiles[1], fs::absolute(m_dir) / "reference.py");
}

TEST_F(TaskSpecTest, ExtraFilesMustExistAndStayInside) {
    const std::pair<const char*, const char*> cases[] = {
        {R"(["../outside.py"])", "extra_files[0] '../outside.py' is outside the task folder"},
        {R"(["/etc/passwd"])", "outside the task folder"},
        {R"(["a/../../b.py"])", "outside the task folder"},
        {R"(["missing.py"])", "extra_files[0] 'missing.py' does not exist"},
        {R"([3])", "extra_files[0]: expected a file path, found the number 3"},
        {R"("one.py")", "extra_files: expected a list"}};
    for (const auto& [list, fragment] : cases) {
        writeTask(std::string(R"({"kernel_file": "k.py", "kernel": "k", "args": [], "extra_files": )") + list + "}");
        auto spec = kl::core::loadTaskSpec(m_dir);
        ASSERT_FALSE(spec) << list;
        EXPECT_NE(spec.error().message.find(fragment), std::string::npos) << spec.error().message;
        EXPECT_NE(spec.error().file.find("task.json"), std::string::npos);
    }
}

struct BadTask {
    const char* text;
    ErrorCode code;
    const char* fragment;
};

class BadTaskSpecTest : public TaskSpecTest, public ::testing::WithParamInterface<BadTask> {};

TEST_P(BadTaskSpecTest, GivesAClearMessageNamingTheFile) {
    writeTask(GetParam().text);
    auto spec = kl::core::loadTaskSpec(m_dir);
    ASSERT_FALSE(spec);
    EXPECT_EQ(spec.error().code, GetParam().code);
    EXPECT_NE(spec.error().message.find(GetParam().fragment), std::string::npos) << spec.error().message;
    EXPECT_EQ(fs::path(spec.error().file).filename(), "task.json");
}

INSTANTIATE_TEST_SUITE_P(
    Broken, BadTaskSpecTest,
    ::testing::Values(
        BadTask{"{not json", ErrorCode::Parse, "not valid JSON"},
        BadTask{R"({"kernel": "k", "args": []})", ErrorCode::Parse, "kernel_file"},
        BadTask{R"({"kernel_file": "k.py", "kernel": "k", "args": [{"name": "a"}]})", ErrorCode::Parse, "\"shape\""},
        BadTask{R"({"kernel_file": "k.py", "kernel": "k", "args": [], "grid": "four"})", ErrorCode::Parse,
                "grid: expected an array of 1 to 3 sizes, e.g. [4] or [2, 2], found the string \"four\""},
        BadTask{R"({"format": 7, "kernel_file": "k.py", "kernel": "k", "args": []})", ErrorCode::Unsupported, "newer"}),
    [](const ::testing::TestParamInfo<BadTask>& info) { return "case" + std::to_string(info.index); });

TEST(TaskSpecMissing, FolderWithoutTaskJson) {
    auto spec = kl::core::loadTaskSpec(fs::temp_directory_path() / "kl-no-such-task-folder");
    ASSERT_FALSE(spec);
    EXPECT_EQ(spec.error().code, ErrorCode::NotFound);
    EXPECT_FALSE(spec.error().hint.empty());
}

} // namespace

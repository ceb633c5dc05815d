// Numerics runs in the review file (schema version 4): stored and read back, checked before they are stored,
// capped in size, and added to a version-3 file by the 3 -> 4 migration without losing anything.
#include "TestSupport.h"

#include "db/Database.h"
#include "numerics/NumericsReader.h"
#include "review/ReviewSchema.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kl::core {
namespace {

const std::string kData = std::string(KL_TEST_DATA_DIR) + "/";
const std::string kStoredV3 = kData + "review-v3.klreview";

std::string fixtureText(const std::string& name) {
    return test::readBytes(kData + "numerics/" + name);
}

TEST(NumericsStorage, StoresAndListsRunsWithTheirSummary) {
    test::TempDir dir;
    ReviewFile file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().addFromFolder(test::makeTaskFolder(dir.path(), "matmul"));
    ASSERT_TRUE(task) << formatError(task.error());
    auto first = file.numericsRuns().add(task->id, fixtureText("matmul_pass.json"));
    ASSERT_TRUE(first) << formatError(first.error());
    auto second = file.numericsRuns().add(task->id, fixtureText("ragged_fail.json"));
    ASSERT_TRUE(second) << formatError(second.error());
    auto runs = file.numericsRuns().list(task->id);
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_TRUE(runs->at(0).passed);
    EXPECT_FALSE(runs->at(1).passed);
    EXPECT_EQ(runs->at(0).kernel, "nki_matmul_basic_tiled");
    EXPECT_EQ(runs->at(0).inputsKind, "normal");
    EXPECT_EQ(runs->at(0).reference, "reference.py:matmul_ref");
    EXPECT_EQ(runs->at(0).cudaNumerics, "tensor-core-bf16:16");
    EXPECT_EQ(runs->at(0).tolerance, "default (rtol 0.016, atol 1e-05)");
    EXPECT_EQ(runs->at(1).document, fixtureText("ragged_fail.json"));
    auto latest = file.numericsRuns().latest(task->id);
    ASSERT_TRUE(latest && *latest);
    EXPECT_EQ((*latest)->id, second->id);
    EXPECT_TRUE(parseNumericsDocument(runs->at(1).document));
    // Deleting the task deletes its runs.
    EXPECT_EQ(*file.database().queryInt("SELECT count(*) FROM numerics_run"), 2);
}

TEST(NumericsStorage, RefusesADocumentThatDoesNotRead) {
    test::TempDir dir;
    ReviewFile file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().addFromFolder(test::makeTaskFolder(dir.path(), "matmul"));
    ASSERT_TRUE(task);
    auto stored = file.numericsRuns().add(task->id, R"({"format": "kernellens-numerics", "version": 1})");
    ASSERT_FALSE(stored);
    EXPECT_NE(stored.error().message.find("kernel: missing"), std::string::npos) << stored.error().message;
    EXPECT_EQ(*file.database().queryInt("SELECT count(*) FROM numerics_run"), 0);
    EXPECT_FALSE(file.numericsRuns().add(999, fixtureText("matmul_pass.json"))); // no such task
}

TEST(NumericsStorage, OversizedDocumentKeepsItsFiguresWithoutDrawings) {
    test::TempDir dir;
    ReviewFile file = test::makeReview(dir.file("r.klreview"));
    auto task = file.tasks().addFromFolder(test::makeTaskFolder(dir.path(), "matmul"));
    ASSERT_TRUE(task);
    nlohmann::json doc = nlohmann::json::parse(fixtureText("matmul_pass.json"));
    // A 256 x 256 heat map written with long decimals, and a long warning, push the document past 8 MiB.
    auto& heat = doc["outputs"][0]["heatmap"];
    heat["rows"] = 256;
    heat["cols"] = 256;
    heat["abs_error"] = nlohmann::json::array();
    heat["worst"] = nlohmann::json::array();
    for (int i = 0; i < 256 * 256; ++i) {
        heat["abs_error"].push_back(0.000123456789012345 + i * 1e-12);
        heat["worst"].push_back(i);
    }
    std::string text;
    for (int indent = 4; text.size() <= NumericsRunRepository::kMaxDocumentBytes; indent += 4) {
        text = doc.dump(indent); // the indent makes it large
    }
    ASSERT_LT(text.size(), NumericsLimits::kMaxBytes);
    ASSERT_GT(text.size(), NumericsRunRepository::kMaxDocumentBytes);
    auto stored = file.numericsRuns().add(task->id, text);
    ASSERT_TRUE(stored) << formatError(stored.error());
    EXPECT_LE(stored->document.size(), NumericsRunRepository::kMaxDocumentBytes);
    auto back = parseNumericsDocument(stored->document);
    ASSERT_TRUE(back);
    EXPECT_FALSE(back->outputs[0].heatmap);
    EXPECT_DOUBLE_EQ(back->outputs[0].comparison(ComparisonKind::NkiVsExact)->maxAbsError, 0.0625);
}

TEST(NumericsStorage, StoredVersion3FileIsVersion3) {
    auto db = Database::open(kStoredV3, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), 3);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'numerics_run'"), 0);
}

TEST(NumericsStorage, Version3To4KeepsEverythingAndAddsNumericsRuns) {
    test::TempDir dir;
    const std::string path = dir.file("v3.klreview");
    std::filesystem::copy_file(kStoredV3, path);
    {
        auto file = ReviewFile::open(path);
        ASSERT_TRUE(file) << formatError(file.error());
        EXPECT_EQ(file->openedVersion(), 3);
        auto dismissed = file->findingDismissals().list(1);
        ASSERT_TRUE(dismissed);
        ASSERT_EQ(dismissed->size(), 1u);
        EXPECT_EQ(dismissed->front().reason, "the tile is tiny");
        EXPECT_EQ(file->annotations().list()->size(), 4u);
        EXPECT_EQ(file->runs().list(1)->front().label, "baseline");
        ASSERT_TRUE(file->numericsRuns().add(1, fixtureText("ragged_fail.json")));
    }
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), 4);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM numerics_run WHERE passed = 0"), 1);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM reply"), 1);
}

TEST(NumericsStorage, MigratedVersion3SchemaMatchesFreshSchema) {
    test::TempDir dir;
    const std::string oldPath = dir.file("old.klreview");
    std::filesystem::copy_file(kStoredV3, oldPath);
    ASSERT_TRUE(ReviewFile::open(oldPath));
    (void)test::makeReview(dir.file("new.klreview"));
    auto tableSql = [](const std::string& path) {
        auto db = Database::open(path, Database::OpenMode::ReadOnly);
        auto stmt = db->prepare("SELECT sql FROM sqlite_schema WHERE name = 'numerics_run'");
        return stmt && *stmt->step() ? stmt->text(0) : std::string();
    };
    EXPECT_FALSE(tableSql(oldPath).empty());
    EXPECT_EQ(tableSql(oldPath), tableSql(dir.file("new.klreview")));
}

} // namespace
} // namespace kl::core

namespace kl::core {
namespace {

// The numerics reference is Python that runs in the sandbox: a task added to a review keeps it (so a run from the
// review's stored sources finds it, and trust covers it), but never a file outside the task folder.
TEST(NumericsStorage, ATaskKeepsItsReferenceFile) {
    test::TempDir dir;
    ReviewFile file = test::makeReview(dir.file("r.klreview"));
    const std::string folder = test::makeTaskFolder(dir.path(), "withref");
    const std::string taskJson = test::readBytes(folder + "/task.json");
    nlohmann::json doc = nlohmann::json::parse(taskJson);
    doc["reference"] = "reference.py:ref";
    test::writeBytes(folder + "/task.json", doc.dump());
    test::writeBytes(folder + "/reference.py", "def ref(a):\n    return a\n");
    auto task = file.tasks().addFromFolder(folder);
    ASSERT_TRUE(task) << formatError(task.error());
    auto files = file.tasks().files(task->id);
    ASSERT_TRUE(files);
    const auto ref =
        std::find_if(files->begin(), files->end(), [](const TaskFile& f) { return f.role == "reference"; });
    ASSERT_NE(ref, files->end());
    EXPECT_EQ(ref->path, "reference.py");
    EXPECT_EQ(ref->content, "def ref(a):\n    return a\n");

    const std::string outside = test::makeTaskFolder(dir.path(), "outside");
    doc["reference"] = "../withref/reference.py:ref";
    test::writeBytes(outside + "/task.json", doc.dump());
    auto other = file.tasks().addFromFolder(outside);
    ASSERT_TRUE(other) << formatError(other.error());
    auto otherFiles = file.tasks().files(other->id);
    EXPECT_TRUE(
        std::none_of(otherFiles->begin(), otherFiles->end(), [](const TaskFile& f) { return f.role == "reference"; }));
}

} // namespace
} // namespace kl::core

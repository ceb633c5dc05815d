// Evidence helpers and the two report forms (text and JSON) on findings built by hand.
#include "findings/Evidence.h"
#include "findings/FindingAnnotation.h"
#include "findings/FindingsReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kl::core::findings {
namespace {

TEST(Evidence, IndexRangesMergeNeighboursAndCap) {
    const std::vector<std::uint32_t> some = {1, 2, 3, 7, 9, 10};
    EXPECT_EQ(indexRanges(some), (std::vector<InstructionRange>{{1, 3}, {7, 7}, {9, 10}}));
    std::vector<std::uint32_t> many;
    for (std::uint32_t i = 0; i < 100; ++i) {
        many.push_back(2 * i);
    }
    const auto capped = indexRanges(many);
    ASSERT_EQ(capped.size(), kMaxRanges);
    EXPECT_EQ(capped.back(), (InstructionRange{30, 30}));
}

TEST(Evidence, LongestRangesKeepTimeOrder) {
    std::vector<std::pair<sim::TimePs, sim::TimePs>> spans;
    for (sim::TimePs i = 0; i < 20; ++i) {
        spans.emplace_back(i * 100, i * 100 + i); // span i is i ps long
    }
    const auto kept = longestRanges(spans);
    ASSERT_EQ(kept.size(), kMaxRanges);
    EXPECT_EQ(kept.front().startPs, 400); // the four shortest (0..3) are dropped
    EXPECT_EQ(kept.back().endPs, 1919);
}

Finding sample() {
    Finding f;
    f.rule = "dma-small-transfers";
    f.title = "Small DMA transfers";
    f.severity = Severity::Major;
    f.rubricItem = "perf.dma";
    f.figures = {{"median_bytes_per_partition", 256, "B", 2048.0}, {"small_transfers", 32768, "transfers", {}}};
    EvidenceItem e;
    e.note = "kernel.py:26: 32768 transfers of 256 B per partition";
    e.instructions = {{0, 0}, {3, 5}};
    e.instructionCount = 32768;
    e.times = {{0, 1500000}};
    e.lines = {{SourceSide::Nki, "kernel.py", 26, 26}, {SourceSide::Cuda, "kernel.cu", 30, 32}};
    f.evidence = {e};
    f.suggestion = "Move at least 2 KiB per partition.";
    return f;
}

TEST(FindingsReport, JsonHasTheDocumentedKeys) {
    const auto doc = nlohmann::json::parse(findingsJson({sample()}, {"k", "trn1", {"dma-small-transfers"}}));
    EXPECT_EQ(doc["schema_version"], 1);
    EXPECT_EQ(doc["kernel"], "k");
    EXPECT_EQ(doc["hardware"], "trn1");
    EXPECT_EQ(doc["rules"][0], "dma-small-transfers");
    const auto& f = doc["findings"][0];
    EXPECT_EQ(f["rule"], "dma-small-transfers");
    EXPECT_EQ(f["title"], "Small DMA transfers");
    EXPECT_EQ(f["severity"], "major");
    EXPECT_EQ(f["rubric_item"], "perf.dma");
    EXPECT_EQ(f["figures"][0]["name"], "median_bytes_per_partition");
    EXPECT_EQ(f["figures"][0]["value"], 256);
    EXPECT_EQ(f["figures"][0]["unit"], "B");
    EXPECT_EQ(f["figures"][0]["threshold"], 2048);
    EXPECT_TRUE(f["figures"][1]["threshold"].is_null());
    const auto& e = f["evidence"][0];
    EXPECT_EQ(e["instructions"], nlohmann::json::parse("[[0, 0], [3, 5]]"));
    EXPECT_EQ(e["instruction_count"], 32768);
    EXPECT_EQ(e["time_ps"], nlohmann::json::parse("[[0, 1500000]]"));
    EXPECT_EQ(e["lines"][1]["side"], "cuda");
    EXPECT_EQ(e["lines"][1]["file"], "kernel.cu");
    EXPECT_EQ(e["lines"][1]["first"], 30);
    EXPECT_EQ(e["lines"][1]["last"], 32);
    EXPECT_EQ(f["suggestion"], "Move at least 2 KiB per partition.");
}

TEST(FindingsReport, TextListsSeverityRuleFiguresEvidenceAndFix) {
    const std::string text = findingsText({sample()}, {"k", "trn1", {}});
    EXPECT_NE(text.find("Findings for k on trn1: 1 (1 major)"), std::string::npos) << text;
    EXPECT_NE(text.find("major    dma-small-transfers  Small DMA transfers  [perf.dma]"), std::string::npos) << text;
    EXPECT_NE(text.find("median_bytes_per_partition 256 B (threshold 2.00 KiB)"), std::string::npos) << text;
    EXPECT_NE(text.find("small_transfers 32768 transfers"), std::string::npos) << text;
    EXPECT_NE(text.find("#0, #3-#5 (32768 instructions)"), std::string::npos) << text;
    EXPECT_NE(text.find("kernel.cu:30-32"), std::string::npos) << text;
    EXPECT_NE(text.find("fix: Move at least"), std::string::npos) << text;
    EXPECT_NE(findingsText({}, {"k", "trn1", {}}).find("Findings for k on trn1: 0\n"), std::string::npos);
}

TEST(FindingAnnotation, DraftCarriesItemSeverityTextAndAnchorsPrimaryNkiFirst) {
    sim::TimelineData timeline;
    for (std::uint32_t i = 0; i < 8; ++i) {
        sim::TimelineData::Record r;
        r.irId = 100 + i; // ids differ from indices
        r.mainStartPs = i * 1000;
        r.endPs = i * 1000 + 500;
        timeline.append(r);
    }
    Finding f = sample();
    f.evidence.front().lines.push_back({SourceSide::Nki, "helpers.py", 7, 7}); // not the task's kernel file
    const AnnotationDraft d = annotationDraft(f, timeline, "kernel.py");
    EXPECT_EQ(d.annotation.rubricItem, "perf.dma");
    EXPECT_EQ(d.annotation.severity, Severity::Major);
    EXPECT_EQ(d.annotation.anchor, Anchor::nkiLines(26, 26));
    EXPECT_NE(d.annotation.text.find("Small DMA transfers (dma-small-transfers)"), std::string::npos);
    EXPECT_NE(d.annotation.text.find("median_bytes_per_partition 256 B (threshold 2048 B)"), std::string::npos)
        << d.annotation.text;
    EXPECT_NE(d.annotation.text.find("Move at least 2 KiB per partition."), std::string::npos);
    const std::vector<Anchor> expected = {Anchor::nkiLines(26, 26), Anchor::timeRange(0, 1499),
                                          Anchor::cudaLines(30, 32), Anchor::instruction(100),
                                          Anchor::instruction(103)};
    EXPECT_EQ(d.anchors, expected);
}

} // namespace
} // namespace kl::core::findings

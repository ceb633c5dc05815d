// Writes the report of one task with 200 annotations (every anchor kind, replies, a run of 20,000
// instructions) in each format and prints the seconds each took, timeline image included for HTML and
// PDF. Figures only; nothing is asserted. Goal: under 2 s per format.
#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportBuilder.h"
#include "report/ReportQt.h"
#include "result/SyntheticRun.h"
#include "review/ReviewFile.h"
#include "rubric/RubricLoader.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using kl::core::report::Report;

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

int main() {
    const fs::path dir = fs::temp_directory_path() / ("kl-report-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto rubric =
        kl::core::RubricLoader::readText(std::string(KL_SOURCE_DIR) + "/resources/rubrics/nki-migration.json");
    auto file =
        kl::core::ReviewFile::create((dir / "bench.klreview").string(), {*rubric, "nki-migration.json", "alice"});
    if (!file) {
        std::fprintf(stderr, "%s\n", kl::formatError(file.error()).c_str());
        return 1;
    }
    std::string kernel;
    for (int i = 1; i <= 300; ++i) {
        kernel += "    x_" + std::to_string(i) + " = nl.load(a[" + std::to_string(i) + "])  # some NKI code\n";
    }
    auto task = file->tasks().add("bench", "Benchmark task",
                                  {{"task.json", "task_json", R"({"kernel": "k", "hardware": "trn1"})"},
                                   {"kernel.py", "nki", kernel},
                                   {"kernel.cu", "cuda", kernel}});
    const auto run = kl::sim::makeSyntheticRun(20000);
    const double fill = seconds([&] {
        for (int i = 0; i < 200; ++i) {
            kl::core::Annotation a;
            a.taskId = task->id;
            a.author = "alice";
            a.severity = static_cast<kl::core::Severity>(i % 5);
            a.text = "Annotation " + std::to_string(i) + ": the loads of tile k+1 wait for the matmul of tile k <b>.";
            switch (i % 4) {
            case 0: a.anchor = kl::core::Anchor::timeRange(i * 1000, i * 1000 + 5000); break;
            case 1: a.anchor = kl::core::Anchor::instruction(i * 50); break;
            case 2: a.anchor = kl::core::Anchor::nkiLines(i % 280 + 1, i % 280 + 8); break;
            default: a.anchor = kl::core::Anchor::cudaLines(i % 280 + 1, i % 280 + 4); break;
            }
            auto created = file->annotations().create(a);
            if (created && i % 3 == 0) {
                (void)file->annotations().addReply(created->id, "bob", "A reply to annotation " + std::to_string(i));
            }
        }
    });
    std::printf("setup: 200 annotations stored in %.2f s\n", fill);

    kl::app::report::QtSession session;
    kl::core::report::BuildOptions options;
    options.generatedAt = "bench";
    options.wantRun = true;
    options.simulate =
        [&](const kl::core::Task&,
            const std::vector<kl::core::TaskFile>&) -> kl::Expected<std::shared_ptr<const kl::sim::SimResult>> {
        return std::shared_ptr<const kl::sim::SimResult>(run);
    };
    Report report;
    const double gather = seconds([&] { report = *kl::core::report::ReportBuilder(*file, options).build(); });
    const double image = seconds([&] { kl::app::report::attachTimelineImage(report.tasks.front()); });
    std::printf("gather (review file -> report model): %.3f s\n", gather);
    std::printf("timeline image (offscreen render + PNG): %.3f s\n", image);
    const double md = seconds([&] { writeFile(dir / "r.md", kl::core::report::MarkdownReport::write(report)); });
    const double json = seconds([&] { writeFile(dir / "r.json", kl::core::report::JsonReport::write(report)); });
    const double csv = seconds([&] { writeFile(dir / "r.csv", kl::core::report::CsvReport::write(report)); });
    const double html = seconds([&] { writeFile(dir / "r.html", kl::core::report::HtmlReport::write(report)); });
    const double pdf = seconds([&] { (void)kl::app::report::writePdf(report, (dir / "r.pdf").string()); });
    std::printf("format    seconds (writer only; a full export adds gather, and HTML/PDF the image)\n");
    std::printf("markdown  %.3f\njson      %.3f\ncsv       %.3f\nhtml      %.3f\npdf       %.3f\n", md, json, csv, html,
                pdf);
    std::printf("full export: html %.3f s, pdf %.3f s, markdown %.3f s\n", gather + image + html, gather + image + pdf,
                gather + md);
    std::error_code ec;
    fs::remove_all(dir, ec);
    return 0;
}

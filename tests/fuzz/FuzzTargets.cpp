#include "FuzzTargets.h"

#include "engine/Simulator.h"
#include "hw/HardwareProfile.h"
#include "ir/IrBinary.h"
#include "ir/IrLoader.h"
#include "lesson/LessonLoader.h"
#include "lesson/LessonText.h"
#include "output/ResultJson.h"
#include "output/TextReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportBuilder.h"
#include "review/ReviewFile.h"
#include "rubric/RubricLoader.h"
#include "rubric/Scorecard.h"
#include "task/TaskSpec.h"
#include "whatif/WhatIfSettings.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kl::fuzz {

namespace fs = std::filesystem;

namespace {

constexpr Format kFormats[] = {
    {"ir", ".ir.json", true, "Kernel IR (sim::IrLoader), then simulated on trn1"},
    {"irbin", ".klir", false, "binary Kernel IR (sim::BinaryIrReader), then simulated on trn1"},
    {"profile", ".json", true, "hardware profile (sim::HardwareProfile), then a seed IR simulated on it"},
    {"task", ".json", true, "task.json (core::loadTaskSpec)"},
    {"rubric", ".json", true, "rubric (core::RubricLoader), then a scorecard"},
    {"lesson", ".json", true, "lesson (core::LessonLoader), then rendered, what-ifs applied"},
    {"review", ".klreview", false, "review file (core::ReviewFile), every repository read, a report built"},
};

std::string readWhole(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

/// Inputs of the harness itself: a failure to read them is a broken checkout, reported and fatal.
[[noreturn]] void setupFailed(const std::string& what) {
    std::fprintf(stderr, "kl_fuzz: %s\n", what.c_str());
    std::exit(2);
}

const sim::HardwareProfile& trn1() {
    static const sim::HardwareProfile profile = [] {
        auto p = sim::HardwareProfile::loadFile(fs::path(KL_SOURCE_DIR) / "resources" / "hw" / "trn1.json");
        if (!p) {
            setupFailed(formatError(p.error()));
        }
        return *p;
    }();
    return profile;
}

/// The first IR seed: what a fuzzed profile is simulated with.
const sim::KernelIr& seedIr() {
    static const sim::KernelIr ir = [] {
        const auto seeds = readFiles("corpus", "ir");
        auto loaded = seeds.empty() ? Expected<sim::KernelIr>(std::unexpected(Error{ErrorCode::NotFound, "no IR seed"}))
                                    : sim::IrLoader::loadString(seeds.front().second, seeds.front().first.string());
        if (!loaded) {
            setupFailed(formatError(loaded.error()));
        }
        return std::move(*loaded);
    }();
    return ir;
}

std::optional<Error> simulate(const sim::KernelIr& ir, const sim::HardwareProfile& hw) {
    auto result = sim::Simulator::run(ir, hw);
    if (!result) {
        return result.error();
    }
    // What the CLI does next: both outputs read every field, names and diagnostics from the IR included.
    const std::string json = sim::ResultJson::write(**result);
    const std::string text = sim::TextReport::summary(**result, "fuzz") + sim::TextReport::timeline(**result, 8);
    if (json.empty() || text.empty()) {
        return Error{ErrorCode::Internal, "empty simulation output"};
    }
    return std::nullopt;
}

void writeFile(const fs::path& path, std::string_view bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

std::span<const Format> formats() {
    return kFormats;
}

const Format* findFormat(std::string_view name) {
    for (const Format& f : kFormats) {
        if (name == f.name) {
            return &f;
        }
    }
    return nullptr;
}

std::vector<std::pair<fs::path, std::string>> readFiles(std::string_view kind, std::string_view format) {
    std::vector<std::pair<fs::path, std::string>> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(KL_FUZZ_DIR) / kind / format, ec)) {
        if (entry.is_regular_file()) {
            files.emplace_back(entry.path(), readWhole(entry.path()));
        }
    }
    std::ranges::sort(files, {}, &std::pair<fs::path, std::string>::first);
    return files;
}

FormatRunner::FormatRunner(const Format& format, fs::path scratch) : m_format(format), m_scratch(std::move(scratch)) {
    std::error_code ec;
    fs::create_directories(m_scratch / "task", ec);
    writeFile(m_scratch / "task" / "reference.py", "# an extra file a task.json may list\n");
    // Loaded once here, before any fork, so every case starts from the same state.
    (void)trn1();
    if (std::string_view(format.name) == "profile") {
        (void)seedIr();
    }
}

Target FormatRunner::target() const {
    return [this](std::string_view input) { (void)feed(input); };
}

std::optional<Error> FormatRunner::feed(std::string_view input) const {
    const std::string_view name = m_format.name;
    if (name == "ir") {
        auto ir = sim::IrLoader::loadString(input, "fuzz.ir.json");
        return ir ? simulate(*ir, trn1()) : std::optional<Error>(ir.error());
    }
    if (name == "irbin") {
        auto ir = sim::BinaryIrReader::loadBytes(std::as_bytes(std::span(input.data(), input.size())), "fuzz.klir");
        // The file path reads in blocks (not from one span): it must reach the same verdict on the same bytes.
        writeFile(m_scratch / "fuzz.klir", input);
        auto fromFile = sim::BinaryIrReader::loadFile(m_scratch / "fuzz.klir");
        if (ir.has_value() != fromFile.has_value() ||
            (ir && ir->instructions().size() != fromFile->instructions().size())) {
            return Error{ErrorCode::Internal, "the file and memory reads of the binary IR disagree"};
        }
        return ir ? simulate(*ir, trn1()) : std::optional<Error>(ir.error());
    }
    if (name == "profile") {
        auto hw = sim::HardwareProfile::loadString(input, "fuzz-profile.json");
        return hw ? simulate(seedIr(), *hw) : std::optional<Error>(hw.error());
    }
    if (name == "task") {
        writeFile(m_scratch / "task" / "task.json", input);
        auto spec = core::loadTaskSpec(m_scratch / "task");
        return spec ? std::nullopt : std::optional<Error>(spec.error());
    }
    if (name == "rubric") {
        auto rubric = core::RubricLoader::parse(input, "fuzz-rubric.json");
        if (!rubric) {
            return rubric.error();
        }
        const core::Scorecard card = core::computeScorecard(*rubric, {}, {});
        return card.unscored.size() == rubric->itemCount()
                   ? std::nullopt
                   : std::optional<Error>(Error{ErrorCode::Internal, "scorecard"});
    }
    if (name == "lesson") {
        auto lesson = core::LessonLoader(fs::path(KL_SOURCE_DIR) / "examples").loadString(input, "fuzz-lesson.json");
        if (!lesson) {
            return lesson.error();
        }
        for (const core::LessonStep& step : lesson->steps) {
            (void)core::renderLessonHtml(step.text, {{"a.total_us", 1.5}, {"speedup", 2.0}});
            if (auto applied = core::applyOverrides(trn1(), step.whatIf); !applied) {
                return applied.error();
            }
        }
        return std::nullopt;
    }
    return feedReview(input);
}

std::optional<Error> FormatRunner::feedReview(std::string_view input) const {
    const fs::path path = m_scratch / "fuzz.klreview";
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) {
        fs::remove(path.string() + suffix, ec);
    }
    writeFile(path, input);
    auto file = core::ReviewFile::open(path.string());
    if (!file) {
        return file.error();
    }
    auto tasks = file->tasks().list();
    if (!tasks) {
        return tasks.error();
    }
    (void)file->reviewers().list();
    (void)file->annotations().list();
    for (const core::Task& task : *tasks) {
        (void)file->scorecard(task.id);
        (void)file->scores().list(task.id);
        (void)file->links().list(task.id);
        (void)file->runs().list(task.id);
        (void)file->tasks().files(task.id);
    }
    // The report reads the stored task.json, runs and sources: text written by whoever made the file.
    core::report::ReportBuilder builder(*file, {.taskId = {}, .generatedAt = "2026-01-01T00:00:00.000Z"});
    auto report = builder.build();
    if (!report) {
        return report.error();
    }
    (void)core::report::MarkdownReport::write(*report);
    return std::nullopt;
}

} // namespace kl::fuzz

#pragma once

#include "whatif/WhatIfSettings.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

/// A time window to show. Fractions of the run's total time keep a lesson right when the model is
/// recalibrated; microseconds pin an exact window.
struct LessonTimeRange {
    enum class Unit { Fraction, Microseconds };
    double from = 0;
    double to = 1;
    Unit unit = Unit::Fraction;
};

/// 1-based inclusive line range; first == 0 means none.
struct LessonLines {
    int first = 0;
    int last = 0;
    [[nodiscard]] bool empty() const { return first == 0; }
};

/// What a step sets beside its own run: a second example task (or the same one) on a profile.
struct LessonComparison {
    std::string task;     ///< folder name under examples/
    std::string hardware; ///< profile name
};

/// One step of a lesson: the text to read and where the views should go while reading it.
struct LessonStep {
    std::string title;
    std::string text; ///< markdown-ish, may contain live-number placeholders (docs/lessons.md)
    std::string task; ///< example task folder name (examples/<task>)
    std::string hardware = "trn1";
    std::optional<LessonTimeRange> timeRange;
    LessonLines nkiLines;
    LessonLines cudaLines;
    std::string annotation;  ///< a note pinned over the time range (empty: none)
    ProfileOverrides whatIf; ///< profile field overrides for a what-if run (empty: none)
    std::optional<LessonComparison> compare;
};

/// A lesson file (resources/lessons/*.json, format in docs/lessons.md).
struct Lesson {
    std::string id; ///< file stem
    std::string title;
    std::string summary;
    std::string cudaCounterpart; ///< the CUDA idiom the lesson starts from
    std::vector<LessonStep> steps;
    std::filesystem::path file;
};

} // namespace kl::core

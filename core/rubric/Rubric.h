#pragma once

#include <optional>
#include <string>
#include <vector>

// A rubric template as loaded from resources/rubrics/*.json (format in docs/review-file.md).
// Plain values: the loader builds them, the scorecard reads them, nothing mutates them after.
namespace kl::core {

enum class ScaleKind { Levels, PassFail };

/// How an item is scored: levels 1..N, each with a meaning, or pass (1) / fail (0).
struct RubricScale {
    ScaleKind kind = ScaleKind::Levels;
    std::vector<std::string> levels; ///< Levels: levels[i] is the meaning of value i + 1
    std::string passMeaning;         ///< PassFail only
    std::string failMeaning;

    [[nodiscard]] int minValue() const { return kind == ScaleKind::PassFail ? 0 : 1; }
    [[nodiscard]] int maxValue() const { return kind == ScaleKind::PassFail ? 1 : static_cast<int>(levels.size()); }
    [[nodiscard]] bool accepts(int value) const { return value >= minValue() && value <= maxValue(); }
    /// "3 = adequate", "pass", "fail"; empty for a value the scale does not accept.
    [[nodiscard]] std::string describe(int value) const;
};

struct RubricItem {
    std::string id; ///< unique across the rubric, e.g. "hw.partition_dim"
    std::string title;
    std::string guidance;
    double weight = 1.0;
    RubricScale scale;
};

struct RubricArea {
    std::string id;
    std::string title;
    double weight = 1.0;
    std::vector<RubricItem> items;
};

struct Rubric {
    std::string id;
    std::string title;
    std::string version;
    double passThreshold = 3.0; ///< overall weighted mean (on the 1-5 scale) a task needs to pass
    std::vector<RubricArea> areas;

    [[nodiscard]] const RubricItem* findItem(const std::string& itemId) const;
    [[nodiscard]] std::size_t itemCount() const;
};

} // namespace kl::core

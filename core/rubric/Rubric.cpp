#include "rubric/Rubric.h"

#include <fmt/format.h>

namespace kl::core {

std::string RubricScale::describe(int value) const {
    if (!accepts(value)) {
        return {};
    }
    if (kind == ScaleKind::PassFail) {
        return value == 1 ? "pass" : "fail";
    }
    return fmt::format("{} = {}", value, levels[static_cast<std::size_t>(value - 1)]);
}

const RubricItem* Rubric::findItem(const std::string& itemId) const {
    for (const RubricArea& area : areas) {
        for (const RubricItem& item : area.items) {
            if (item.id == itemId) {
                return &item;
            }
        }
    }
    return nullptr;
}

std::size_t Rubric::itemCount() const {
    std::size_t count = 0;
    for (const RubricArea& area : areas) {
        count += area.items.size();
    }
    return count;
}

} // namespace kl::core

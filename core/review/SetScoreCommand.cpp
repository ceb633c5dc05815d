#include "review/SetScoreCommand.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

Expected<void> SetScoreCommand::put(ReviewFile& file, std::int64_t taskId, const std::string& itemId,
                                    const std::optional<Score>& score) {
    auto scores = file.scores();
    return score ? scores.restore(*score) : scores.clear(taskId, itemId);
}

Expected<void> SetScoreCommand::apply(ReviewFile& file) {
    if (m_applied) {
        return put(file, m_taskId, m_itemId, m_after);
    }
    auto scores = file.scores();
    auto before = scores.find(m_taskId, m_itemId);
    KL_TRY(before);
    if (m_value) {
        auto saved = scores.set(m_taskId, m_itemId, *m_value, m_reviewer);
        KL_TRY(saved);
        m_after = std::move(*saved);
    } else
        KL_TRY(scores.clear(m_taskId, m_itemId));
    m_before = std::move(*before);
    m_applied = true;
    return {};
}

Expected<void> SetScoreCommand::revert(ReviewFile& file) {
    if (!m_applied) {
        return makeError(ErrorCode::Internal, "undo of a score change that was never applied");
    }
    return put(file, m_taskId, m_itemId, m_before);
}

std::string SetScoreCommand::description() const {
    return m_value ? fmt::format("Score {}", m_itemId) : fmt::format("Clear score {}", m_itemId);
}

} // namespace kl::core

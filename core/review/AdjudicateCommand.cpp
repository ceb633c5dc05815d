#include "review/AdjudicateCommand.h"

#include "db/Database.h"
#include "db/Transaction.h"
#include "review/ReviewFile.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {
namespace {

Expected<std::optional<Adjudication>> findAdjudication(ReviewFile& file, std::int64_t taskId,
                                                       const std::string& itemId) {
    auto all = file.team().adjudications(taskId);
    KL_TRY(all);
    for (Adjudication& a : *all) {
        if (a.itemId == itemId) {
            return std::optional(std::move(a));
        }
    }
    return std::optional<Adjudication>();
}

} // namespace

Expected<void> AdjudicateCommand::put(ReviewFile& file, const std::optional<Score>& score,
                                      const std::optional<Adjudication>& adjudication) const {
    auto tx = file.database().beginTransaction();
    KL_TRY(tx);
    auto scores = file.scores();
    KL_TRY(score ? scores.restore(*score) : scores.clear(m_taskId, m_itemId));
    auto team = file.team();
    if (auto ok = adjudication ? team.restoreAdjudication(*adjudication) : team.clearAdjudication(m_taskId, m_itemId);
        !ok) {
        return ok;
    }
    return tx->commit();
}

Expected<void> AdjudicateCommand::apply(ReviewFile& file) {
    if (m_applied) {
        return put(file, m_scoreAfter, m_after);
    }
    auto scoreBefore = file.scores().find(m_taskId, m_itemId);
    auto before = findAdjudication(file, m_taskId, m_itemId);
    KL_TRY(scoreBefore);
    KL_TRY(before);
    auto decided = file.team().adjudicate(m_taskId, m_itemId, m_value, m_reason, m_adjudicator);
    KL_TRY(decided);
    auto scoreAfter = file.scores().find(m_taskId, m_itemId);
    KL_TRY(scoreAfter);
    m_scoreBefore = std::move(*scoreBefore);
    m_before = std::move(*before);
    m_scoreAfter = std::move(*scoreAfter);
    m_after = std::move(*decided);
    m_applied = true;
    return {};
}

Expected<void> AdjudicateCommand::revert(ReviewFile& file) {
    if (!m_applied) {
        return makeError(ErrorCode::Internal, "undo of an adjudication that was never applied");
    }
    return put(file, m_scoreBefore, m_before);
}

std::string AdjudicateCommand::description() const {
    return fmt::format("Agree {} = {}", m_itemId, m_value);
}

} // namespace kl::core

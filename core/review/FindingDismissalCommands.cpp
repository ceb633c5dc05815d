#include "review/FindingDismissalCommands.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

#include <fmt/format.h>

namespace kl::core {

Expected<void> DismissFindingCommand::apply(ReviewFile& file) {
    auto repo = file.findingDismissals();
    if (m_saved) {
        return repo.put(m_dismissal);
    }
    auto saved = repo.add(m_dismissal);
    KL_TRY(saved);
    m_dismissal = std::move(*saved);
    m_saved = true;
    return {};
}

Expected<void> DismissFindingCommand::revert(ReviewFile& file) {
    auto removed = file.findingDismissals().remove(m_dismissal.taskId, m_dismissal.findingKey);
    KL_TRY(removed);
    return {};
}

std::string DismissFindingCommand::description() const {
    return fmt::format("Dismiss finding {}", m_dismissal.findingKey);
}

Expected<void> RestoreFindingCommand::apply(ReviewFile& file) {
    auto removed = file.findingDismissals().remove(m_taskId, m_key);
    KL_TRY(removed);
    m_removed = std::move(*removed);
    return {};
}

Expected<void> RestoreFindingCommand::revert(ReviewFile& file) {
    if (!m_removed) {
        return makeError(ErrorCode::Internal, "restoring a finding dismissal that was never removed");
    }
    return file.findingDismissals().put(*m_removed);
}

std::string RestoreFindingCommand::description() const {
    return fmt::format("Restore finding {}", m_key);
}

} // namespace kl::core

#include "review/SetTaskStatusCommand.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

namespace kl::core {

Expected<void> SetTaskStatusCommand::apply(ReviewFile& file) {
    auto tasks = file.tasks();
    if (!m_before) {
        auto task = tasks.get(m_taskId);
        KL_TRY(task);
        KL_TRY(tasks.setStatus(m_taskId, m_status));
        m_before = task->status;
        return {};
    }
    return tasks.setStatus(m_taskId, m_status);
}

Expected<void> SetTaskStatusCommand::revert(ReviewFile& file) {
    if (!m_before) {
        return makeError(ErrorCode::Internal, "undo of a task status change that was never applied");
    }
    return file.tasks().setStatus(m_taskId, *m_before);
}

std::string SetTaskStatusCommand::description() const {
    switch (m_status) {
    case TaskStatus::Todo: return "Mark task to do";
    case TaskStatus::InProgress: return "Mark task in progress";
    case TaskStatus::Done: return "Mark task done";
    }
    return "Change task status";
}

} // namespace kl::core

#include "review/EditHistory.h"

#include "support/Try.h"

namespace kl::core {

Expected<void> EditHistory::push(std::unique_ptr<EditCommand> command) {
    KL_TRY(command->apply(m_file));
    m_commands.resize(m_index);
    m_commands.push_back(std::move(command));
    if (m_commands.size() > m_limit) {
        m_commands.erase(m_commands.begin());
    }
    m_index = m_commands.size();
    return {};
}

Expected<void> EditHistory::undo() {
    if (!canUndo()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to undo");
    }
    KL_TRY(m_commands[m_index - 1]->revert(m_file));
    --m_index;
    return {};
}

Expected<void> EditHistory::redo() {
    if (!canRedo()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to redo");
    }
    KL_TRY(m_commands[m_index]->apply(m_file));
    ++m_index;
    return {};
}

std::string EditHistory::undoText() const {
    return canUndo() ? m_commands[m_index - 1]->description() : std::string();
}

std::string EditHistory::redoText() const {
    return canRedo() ? m_commands[m_index]->description() : std::string();
}

void EditHistory::clear() {
    m_commands.clear();
    m_index = 0;
}

} // namespace kl::core

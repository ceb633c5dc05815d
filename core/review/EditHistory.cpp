#include "review/EditHistory.h"

namespace kl::core {

Expected<void> EditHistory::push(std::unique_ptr<EditCommand> command) {
    if (auto applied = command->apply(m_file); !applied) {
        return applied;
    }
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
    if (auto reverted = m_commands[m_index - 1]->revert(m_file); !reverted) {
        return reverted;
    }
    --m_index;
    return {};
}

Expected<void> EditHistory::redo() {
    if (!canRedo()) {
        return makeError(ErrorCode::InvalidArgument, "nothing to redo");
    }
    if (auto applied = m_commands[m_index]->apply(m_file); !applied) {
        return applied;
    }
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

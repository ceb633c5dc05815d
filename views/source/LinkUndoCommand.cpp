#include "source/LinkUndoCommand.h"

namespace kl::views {

LinkUndoCommand::LinkUndoCommand(core::LinkSet& set, std::unique_ptr<core::LinkCommand> command,
                                 std::function<void()> changed, std::function<void(const Error&)> failed)
    : m_set(set), m_command(std::move(command)), m_changed(std::move(changed)), m_failed(std::move(failed)) {
    setText(QString::fromStdString(m_command->description()));
}

void LinkUndoCommand::bindTo(std::weak_ptr<const int> owner) {
    m_owner = std::move(owner);
    m_bound = true;
}

bool LinkUndoCommand::stale() {
    if (m_bound && m_owner.expired()) {
        setObsolete(true);
        return true;
    }
    return false;
}

void LinkUndoCommand::redo() {
    if (stale()) {
        return;
    }
    if (auto done = m_command->apply(m_set); !done) {
        setObsolete(true);
        if (m_failed) {
            m_failed(done.error());
        }
        return;
    }
    setText(QString::fromStdString(m_command->description()));
    if (m_changed) {
        m_changed();
    }
}

void LinkUndoCommand::undo() {
    if (stale()) {
        return;
    }
    if (auto done = m_command->revert(m_set); !done) {
        if (m_failed) {
            m_failed(done.error());
        }
        return;
    }
    if (m_changed) {
        m_changed();
    }
}

} // namespace kl::views

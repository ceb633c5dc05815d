#pragma once

#include "source/LinkSet.h"

#include <QUndoCommand>

#include <functional>
#include <memory>

namespace kl::views {

/// A core::LinkCommand on a QUndoStack: redo() applies it, undo() reverts it, and `changed` runs after
/// either so the owner can repaint. A command whose first apply fails marks itself obsolete, so
/// QUndoStack::push drops it; its error is kept for the owner to report.
class LinkUndoCommand : public QUndoCommand {
public:
    LinkUndoCommand(core::LinkSet& set, std::unique_ptr<core::LinkCommand> command, std::function<void()> changed,
                    std::function<void(const Error&)> failed);

    void redo() override;
    void undo() override;
    [[nodiscard]] core::LinkCommand* command() const { return m_command.get(); }

private:
    core::LinkSet& m_set;
    std::unique_ptr<core::LinkCommand> m_command;
    std::function<void()> m_changed;
    std::function<void(const Error&)> m_failed;
};

} // namespace kl::views

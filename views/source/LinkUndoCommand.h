#pragma once

#include "source/LinkSet.h"

#include <QUndoCommand>

#include <functional>
#include <memory>

namespace kl::views {

/// A core::LinkCommand on a QUndoStack: redo() applies it, undo() reverts it, and `changed` runs after
/// either so the owner can repaint. A command whose first apply fails marks itself obsolete, so
/// QUndoStack::push drops it; its error is kept for the owner to report.
///
/// The command may share one QUndoStack with the review's other edits (Edit > Undo undoes links too). When its
/// owner shows other sources, the link set it refers to is rebuilt: the owner drops the `owner` token given to
/// `bindTo`, and the command, once reached by undo or redo, does nothing and marks itself obsolete so the stack
/// drops it.
class LinkUndoCommand : public QUndoCommand {
public:
    LinkUndoCommand(core::LinkSet& set, std::unique_ptr<core::LinkCommand> command, std::function<void()> changed,
                    std::function<void(const Error&)> failed);

    void redo() override;
    void undo() override;
    [[nodiscard]] core::LinkCommand* command() const { return m_command.get(); }
    void bindTo(std::weak_ptr<const int> owner);

private:
    [[nodiscard]] bool stale();

    core::LinkSet& m_set;
    std::unique_ptr<core::LinkCommand> m_command;
    std::function<void()> m_changed;
    std::function<void(const Error&)> m_failed;
    std::weak_ptr<const int> m_owner;
    bool m_bound = false;
};

} // namespace kl::views

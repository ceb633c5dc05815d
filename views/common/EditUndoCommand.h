#pragma once

#include "common/QtText.h"
#include "review/EditCommand.h"

#include <QUndoCommand>

#include <functional>
#include <memory>

namespace kl::views {

/// Any core::UndoableEdit on a QUndoStack, so that every review edit (review file and line links alike) shares
/// the review's one stack and Edit > Undo undoes whichever came last. redo() applies the command to the target
/// `target()` returns, undo() reverts it; `changed` runs after either (also after a failure, so views show what
/// the target really holds). A command that fails marks itself obsolete, so QUndoStack drops it and the stack
/// never claims an edit its target does not hold; `failed` gets the error to report.
///
/// When the target is rebuilt under the stack (the task's links when other sources are shown), its owner drops
/// the `owner` token given to `bindTo`; the command, once reached by undo or redo, then does nothing and marks
/// itself obsolete so the stack drops it.
template <typename Target> class EditUndoCommand final : public QUndoCommand {
public:
    using Command = core::UndoableEdit<Target>;

    EditUndoCommand(std::unique_ptr<Command> command, std::function<Target*()> target, std::function<void()> changed,
                    std::function<void(const Error&)> failed)
        : QUndoCommand(toQString(command->description())), m_command(std::move(command)), m_target(std::move(target)),
          m_changed(std::move(changed)), m_failed(std::move(failed)) {}

    void bindTo(std::weak_ptr<const int> owner) {
        m_owner = std::move(owner);
        m_bound = true;
    }
    [[nodiscard]] Command* command() const { return m_command.get(); }

    void redo() override {
        if (run(true)) {
            setText(toQString(m_command->description())); // a command may name what it made (an id) once applied
        }
    }
    void undo() override { run(false); }

private:
    bool run(bool apply) {
        Target* target = m_target ? m_target() : nullptr;
        if ((m_bound && m_owner.expired()) || target == nullptr) {
            setObsolete(true);
            return false;
        }
        const Expected<void> done = apply ? m_command->apply(*target) : m_command->revert(*target);
        if (!done) {
            setObsolete(true);
            if (m_failed) {
                m_failed(done.error());
            }
        }
        if (m_changed) {
            m_changed();
        }
        return done.has_value();
    }

    std::unique_ptr<Command> m_command;
    std::function<Target*()> m_target;
    std::function<void()> m_changed;
    std::function<void(const Error&)> m_failed;
    std::weak_ptr<const int> m_owner;
    bool m_bound = false;
};

} // namespace kl::views

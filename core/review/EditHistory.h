#pragma once

#include "common/Error.h"
#include "review/EditCommand.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kl::core {

class ReviewFile;

/// An undo/redo stack of EditCommands applied to one ReviewFile, for the CLI, tests and any front
/// end that does not bring its own (the GUI may use QUndoStack around the same commands instead).
///
/// States: commands [0, m_index) are applied, [m_index, size) are undone and can be redone. `push`
/// applies a command and drops the redo tail. A command that fails is not recorded and the stack is
/// unchanged, so the stack never claims an edit the file does not hold.
class EditHistory {
public:
    explicit EditHistory(ReviewFile& file, std::size_t limit = 500) : m_file(file), m_limit(limit) {}

    [[nodiscard]] Expected<void> push(std::unique_ptr<EditCommand> command);
    [[nodiscard]] Expected<void> undo();
    [[nodiscard]] Expected<void> redo();
    [[nodiscard]] bool canUndo() const { return m_index > 0; }
    [[nodiscard]] bool canRedo() const { return m_index < m_commands.size(); }
    [[nodiscard]] std::string undoText() const;
    [[nodiscard]] std::string redoText() const;
    void clear();

private:
    ReviewFile& m_file;
    std::size_t m_limit;
    std::vector<std::unique_ptr<EditCommand>> m_commands;
    std::size_t m_index = 0;
};

} // namespace kl::core

#pragma once

#include "common/Error.h"

#include <string>

namespace kl::core {

class ReviewFile;

/// One undoable edit of a review file. `apply` performs (or re-performs) it, `revert` undoes it;
/// both write through to the file at once, as every edit does. A command remembers what it needs
/// to revert (ids, the previous state) the first time it is applied.
///
/// Qt-free on purpose: the GUI wraps each command in a QUndoCommand whose redo()/undo() call
/// apply()/revert(), or uses `EditHistory` directly.
class EditCommand {
public:
    virtual ~EditCommand() = default;
    [[nodiscard]] virtual Expected<void> apply(ReviewFile& file) = 0;
    [[nodiscard]] virtual Expected<void> revert(ReviewFile& file) = 0;
    /// For an Undo menu entry: "Add annotation", "Edit annotation 12".
    [[nodiscard]] virtual std::string description() const = 0;
};

} // namespace kl::core

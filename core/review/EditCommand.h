#pragma once

#include "common/Error.h"

#include <string>

namespace kl::core {

class ReviewFile;
class LinkSet;

/// One undoable edit of a `Target`: the one command interface of every review edit, whether it writes the
/// review file (annotations, scores, replies, task states) or the task's CUDA<->NKI links. `apply` performs (or
/// re-performs) it, `revert` undoes it; both write through at once, as every edit does. A command remembers what
/// it needs to revert (ids, the previous state) the first time it is applied, and a command that fails leaves
/// its target unchanged.
///
/// Qt-free on purpose: the GUI puts every kind on the review's one QUndoStack through views::EditUndoCommand,
/// the CLI and tests use `EditHistory`.
template <typename Target> class UndoableEdit {
public:
    using TargetType = Target;
    virtual ~UndoableEdit() = default;
    [[nodiscard]] virtual Expected<void> apply(Target& target) = 0;
    [[nodiscard]] virtual Expected<void> revert(Target& target) = 0;
    /// For an Undo menu entry: "Add annotation", "Edit annotation 12", "Link CUDA 3-5 <-> NKI 10-12".
    [[nodiscard]] virtual std::string description() const = 0;
};

/// An edit of the review file.
using EditCommand = UndoableEdit<ReviewFile>;
/// An edit of the task's line links (core/source/LinkSet.h).
using LinkCommand = UndoableEdit<LinkSet>;

} // namespace kl::core

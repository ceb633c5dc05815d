#pragma once

#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kl::core {

/// Adds a reply to an annotation, undoably: undo removes it, redo adds the same text by the same author
/// again (as a new reply row: replies are append-only notes, nothing refers to their ids).
class AddReplyCommand final : public EditCommand {
public:
    AddReplyCommand(std::int64_t annotationId, std::string author, std::string text)
        : m_annotationId(annotationId), m_author(std::move(author)), m_text(std::move(text)) {}
    [[nodiscard]] Expected<void> apply(ReviewFile& file) override;
    [[nodiscard]] Expected<void> revert(ReviewFile& file) override;
    [[nodiscard]] std::string description() const override { return "Reply"; }
    /// The reply as last added (id 0 before the first apply or after undo).
    [[nodiscard]] const std::optional<Reply>& reply() const { return m_reply; }

private:
    std::int64_t m_annotationId;
    std::string m_author;
    std::string m_text;
    std::optional<Reply> m_reply;
};

} // namespace kl::core

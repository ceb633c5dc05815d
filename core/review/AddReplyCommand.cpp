#include "review/AddReplyCommand.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

namespace kl::core {

Expected<void> AddReplyCommand::apply(ReviewFile& file) {
    auto reply = file.annotations().addReply(m_annotationId, m_author, m_text);
    KL_TRY(reply);
    m_reply = std::move(*reply);
    return {};
}

Expected<void> AddReplyCommand::revert(ReviewFile& file) {
    if (!m_reply) {
        return makeError(ErrorCode::Internal, "undo of a reply that was never added");
    }
    if (auto removed = file.annotations().removeReply(m_reply->id); !removed) {
        return removed;
    }
    m_reply.reset();
    return {};
}

} // namespace kl::core

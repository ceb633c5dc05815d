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
    KL_TRY(file.annotations().removeReply(m_reply->id));
    m_reply.reset();
    return {};
}

} // namespace kl::core

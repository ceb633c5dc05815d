#include "source/LinkSet.h"

#include "review/ReviewFile.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>

namespace kl::core {

Expected<LineLink> ReviewLinkStore::add(LineLink link) {
    link.taskId = m_taskId;
    return m_file.links().add(std::move(link));
}

Expected<void> ReviewLinkStore::remove(std::int64_t id) {
    return m_file.links().remove(id);
}

Expected<void> ReviewLinkStore::setState(std::int64_t id, LinkState state) {
    return m_file.links().setState(id, state);
}

Expected<std::vector<LineLink>> ReviewLinkStore::list() {
    return m_file.links().list(m_taskId);
}

bool LinkSet::isStored(const LineLink& link) {
    return link.origin == LinkOrigin::Reviewer ||
           (link.origin == LinkOrigin::Suggestion && link.state != LinkState::Proposed);
}

void LinkSet::reset(const std::vector<LineLink>& links) {
    m_entries.clear();
    for (const auto& link : links) {
        m_entries.push_back({m_nextKey++, link});
    }
    ++m_revision;
}

LinkSet::Entry* LinkSet::findMutable(Key key) {
    const auto it = std::find_if(m_entries.begin(), m_entries.end(), [key](const Entry& e) { return e.key == key; });
    return it == m_entries.end() ? nullptr : &*it;
}

const LinkSet::Entry* LinkSet::find(Key key) const {
    return const_cast<LinkSet*>(this)->findMutable(key);
}

Expected<LinkSet::Key> LinkSet::insert(LineLink link, Key key) {
    if (link.cudaFirst < 1 || link.cudaLast < link.cudaFirst || link.nkiFirst < 1 || link.nkiLast < link.nkiFirst) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("{}: ranges must have 1 <= first <= last", describeLink(link)));
    }
    if (key != 0 && find(key) != nullptr) {
        return makeError(ErrorCode::Internal, fmt::format("line link key {} is already in use", key));
    }
    link.id = 0;
    if (m_store != nullptr && isStored(link)) {
        auto stored = m_store->add(link);
        KL_TRY(stored);
        link.id = stored->id;
        link.createdAt = stored->createdAt;
    }
    if (key == 0) {
        key = m_nextKey++;
    } else {
        m_nextKey = std::max(m_nextKey, key + 1);
    }
    m_entries.push_back({key, std::move(link)});
    ++m_revision;
    return key;
}

Expected<LineLink> LinkSet::erase(Key key) {
    auto* entry = findMutable(key);
    if (entry == nullptr) {
        return makeError(ErrorCode::NotFound, fmt::format("no line link with key {}", key));
    }
    if (m_store != nullptr && entry->link.id > 0) {
        KL_TRY(m_store->remove(entry->link.id));
    }
    LineLink link = entry->link;
    link.id = 0;
    m_entries.erase(m_entries.begin() + (entry - m_entries.data()));
    ++m_revision;
    return link;
}

Expected<void> LinkSet::setState(Key key, LinkState state) {
    auto* entry = findMutable(key);
    if (entry == nullptr) {
        return makeError(ErrorCode::NotFound, fmt::format("no line link with key {}", key));
    }
    LineLink next = entry->link;
    next.state = state;
    if (m_store != nullptr) {
        if (entry->link.id > 0 && !isStored(next)) {
            KL_TRY(m_store->remove(entry->link.id));
            next.id = 0;
        } else if (entry->link.id > 0) {
            KL_TRY(m_store->setState(entry->link.id, state));
        } else if (isStored(next)) {
            auto stored = m_store->add(next);
            KL_TRY(stored);
            next.id = stored->id;
        }
    }
    entry->link = next;
    ++m_revision;
    return {};
}

std::vector<LinkSet::Entry> LinkSet::visible() const {
    std::vector<Entry> out;
    std::copy_if(m_entries.begin(), m_entries.end(), std::back_inserter(out),
                 [](const Entry& e) { return e.link.state != LinkState::Rejected; });
    return out;
}

namespace {
template <typename First, typename Last>
std::optional<LinkSet::Entry> narrowest(const std::vector<LinkSet::Entry>& entries, int line, First first, Last last) {
    std::optional<LinkSet::Entry> best;
    for (const auto& e : entries) {
        if (e.link.state == LinkState::Rejected || line < first(e.link) || line > last(e.link)) {
            continue;
        }
        if (!best || last(e.link) - first(e.link) < last(best->link) - first(best->link)) {
            best = e;
        }
    }
    return best;
}
} // namespace

std::optional<LinkSet::Entry> LinkSet::atNkiLine(int line) const {
    return narrowest(
        m_entries, line, [](const LineLink& l) { return l.nkiFirst; }, [](const LineLink& l) { return l.nkiLast; });
}

std::optional<LinkSet::Entry> LinkSet::atCudaLine(int line) const {
    return narrowest(
        m_entries, line, [](const LineLink& l) { return l.cudaFirst; }, [](const LineLink& l) { return l.cudaLast; });
}

std::optional<LinkSet::Entry> LinkSet::findRanges(int cudaFirst, int cudaLast, int nkiFirst, int nkiLast) const {
    for (const auto& e : m_entries) {
        const auto& l = e.link;
        if (l.state != LinkState::Rejected && l.cudaFirst == cudaFirst && l.cudaLast == cudaLast &&
            l.nkiFirst == nkiFirst && l.nkiLast == nkiLast) {
            return e;
        }
    }
    return std::nullopt;
}

Expected<void> AddLinkCommand::apply(LinkSet& set) {
    auto key = set.insert(m_link, m_key);
    KL_TRY(key);
    m_key = *key;
    return {};
}

Expected<void> AddLinkCommand::revert(LinkSet& set) {
    auto removed = set.erase(m_key);
    KL_TRY(removed);
    return {};
}

std::string AddLinkCommand::description() const {
    return "Link " + describeLink(m_link);
}

Expected<void> RemoveLinkCommand::apply(LinkSet& set) {
    auto removed = set.erase(m_key);
    KL_TRY(removed);
    m_removed = *removed;
    return {};
}

Expected<void> RemoveLinkCommand::revert(LinkSet& set) {
    auto key = set.insert(m_removed, m_key);
    KL_TRY(key);
    return {};
}

std::string RemoveLinkCommand::description() const {
    return "Unlink " + describeLink(m_removed);
}

Expected<void> SetLinkStateCommand::apply(LinkSet& set) {
    const auto* entry = set.find(m_key);
    if (entry == nullptr) {
        return makeError(ErrorCode::NotFound, fmt::format("no line link with key {}", m_key));
    }
    m_previous = entry->link.state;
    return set.setState(m_key, m_state);
}

Expected<void> SetLinkStateCommand::revert(LinkSet& set) {
    return set.setState(m_key, m_previous);
}

std::string SetLinkStateCommand::description() const {
    switch (m_state) {
    case LinkState::Accepted: return "Accept suggested link";
    case LinkState::Rejected: return "Dismiss suggested link";
    case LinkState::Proposed: break;
    }
    return "Reopen suggested link";
}

std::string describeLink(const LineLink& link) {
    const auto range = [](int a, int b) { return a == b ? fmt::format("{}", a) : fmt::format("{}-{}", a, b); };
    return fmt::format("CUDA {} <-> NKI {}", range(link.cudaFirst, link.cudaLast), range(link.nkiFirst, link.nkiLast));
}

} // namespace kl::core

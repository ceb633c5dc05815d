#include "review/ReviewTypes.h"

#include <array>
#include <utility>

namespace kl::core {

namespace {

template <typename E, std::size_t N> using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<TaskStatus, 3> kTaskStatus{
    {{TaskStatus::Todo, "todo"}, {TaskStatus::InProgress, "in_progress"}, {TaskStatus::Done, "done"}}};
constexpr Names<AnchorKind, 4> kAnchorKind{{{AnchorKind::TimeRange, "time"},
                                            {AnchorKind::Instruction, "instruction"},
                                            {AnchorKind::NkiLines, "nki_lines"},
                                            {AnchorKind::CudaLines, "cuda_lines"}}};
constexpr Names<Severity, 5> kSeverity{{{Severity::Blocking, "blocking"},
                                        {Severity::Major, "major"},
                                        {Severity::Minor, "minor"},
                                        {Severity::Nit, "nit"},
                                        {Severity::Praise, "praise"}}};
constexpr Names<LinkOrigin, 3> kLinkOrigin{
    {{LinkOrigin::Comment, "comment"}, {LinkOrigin::Reviewer, "reviewer"}, {LinkOrigin::Suggestion, "suggestion"}}};
constexpr Names<LinkState, 3> kLinkState{
    {{LinkState::Proposed, "proposed"}, {LinkState::Accepted, "accepted"}, {LinkState::Rejected, "rejected"}}};

template <typename E, std::size_t N> std::string_view nameOf(const Names<E, N>& names, E value) {
    for (const auto& [v, name] : names) {
        if (v == value) {
            return name;
        }
    }
    return "?";
}

template <typename E, std::size_t N> std::optional<E> valueOf(const Names<E, N>& names, std::string_view text) {
    for (const auto& [v, name] : names) {
        if (name == text) {
            return v;
        }
    }
    return std::nullopt;
}

} // namespace

std::string_view toString(TaskStatus value) {
    return nameOf(kTaskStatus, value);
}
std::string_view toString(AnchorKind value) {
    return nameOf(kAnchorKind, value);
}
std::string_view toString(Severity value) {
    return nameOf(kSeverity, value);
}
std::string_view toString(LinkOrigin value) {
    return nameOf(kLinkOrigin, value);
}
std::string_view toString(LinkState value) {
    return nameOf(kLinkState, value);
}
std::optional<TaskStatus> parseTaskStatus(std::string_view text) {
    return valueOf(kTaskStatus, text);
}
std::optional<AnchorKind> parseAnchorKind(std::string_view text) {
    return valueOf(kAnchorKind, text);
}
std::optional<Severity> parseSeverity(std::string_view text) {
    return valueOf(kSeverity, text);
}
std::optional<LinkOrigin> parseLinkOrigin(std::string_view text) {
    return valueOf(kLinkOrigin, text);
}
std::optional<LinkState> parseLinkState(std::string_view text) {
    return valueOf(kLinkState, text);
}

} // namespace kl::core

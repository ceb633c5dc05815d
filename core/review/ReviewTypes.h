#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Value types stored in a review file. They share a header because each is a plain row of one
// table and they are always used together; the tables are documented in docs/review-file.md.
namespace kl::core {

enum class TaskStatus { Todo, InProgress, Done };
enum class AnchorKind { TimeRange, Instruction, NkiLines, CudaLines };
enum class Severity { Blocking, Major, Minor, Nit, Praise };
enum class LinkOrigin { Comment, Reviewer, Suggestion };
enum class LinkState { Proposed, Accepted, Rejected };

/// A file copied into the review so it stays readable when the task folder moves or changes.
struct TaskFile {
    std::string path; ///< relative to the task folder, as task.json names it
    std::string role; ///< task_json, nki, cuda, hardware
    std::string content;
};

struct Task {
    std::int64_t id = 0;
    std::string folder; ///< folder name of the task, unique within the review
    std::string title;
    TaskStatus status = TaskStatus::Todo;
    std::int64_t secondsSpent = 0;
    int position = 0; ///< order in the review queue
    std::string addedAt;
};

/// Where an annotation is pinned. Only the fields of its kind are meaningful.
struct Anchor {
    AnchorKind kind = AnchorKind::TimeRange;
    std::int64_t t0Ns = 0;          ///< TimeRange: inclusive start, simulated nanoseconds
    std::int64_t t1Ns = 0;          ///< TimeRange: inclusive end, t0Ns <= t1Ns
    std::int64_t instructionId = 0; ///< Instruction: id in the kernel IR
    int firstLine = 0;              ///< NkiLines/CudaLines: 1-based, inclusive
    int lastLine = 0;

    static Anchor timeRange(std::int64_t t0, std::int64_t t1) { return {AnchorKind::TimeRange, t0, t1, 0, 0, 0}; }
    static Anchor instruction(std::int64_t id) { return {AnchorKind::Instruction, 0, 0, id, 0, 0}; }
    static Anchor nkiLines(int first, int last) { return {AnchorKind::NkiLines, 0, 0, 0, first, last}; }
    static Anchor cudaLines(int first, int last) { return {AnchorKind::CudaLines, 0, 0, 0, first, last}; }
    bool operator==(const Anchor&) const = default;
};

struct Annotation {
    std::int64_t id = 0; ///< 0 until saved
    std::int64_t taskId = 0;
    Anchor anchor;
    std::string rubricItem; ///< empty when the annotation is not tied to an item
    Severity severity = Severity::Minor;
    std::optional<int> score;
    std::string text;
    std::string author;
    std::string createdAt; ///< ISO 8601 UTC, set by the repository
    std::string updatedAt;
    bool resolved = false;
    bool operator==(const Annotation&) const = default;
};

struct Reply {
    std::int64_t id = 0;
    std::int64_t annotationId = 0;
    std::string author;
    std::string text;
    std::string createdAt;
    bool operator==(const Reply&) const = default;
};

/// Everything needed to put a deleted annotation back exactly as it was (same id, same replies).
struct AnnotationSnapshot {
    Annotation annotation;
    std::vector<Reply> replies;
};

/// Which annotations `AnnotationRepository::list` returns; unset fields match everything.
struct AnnotationFilter {
    std::optional<std::int64_t> taskId;
    std::optional<std::string> rubricItem;
    std::optional<Severity> severity;
    std::optional<bool> resolved;
    std::optional<std::string> author;
};

struct Score {
    std::int64_t taskId = 0;
    std::string itemId;
    int value = 0; ///< 1..N for a level scale, 1 = pass / 0 = fail for a pass/fail item
    std::string reviewer;
    std::string updatedAt;
};

/// A CUDA line range paired with the NKI lines that replace it.
struct LineLink {
    std::int64_t id = 0;
    std::int64_t taskId = 0;
    int cudaFirst = 0, cudaLast = 0;
    int nkiFirst = 0, nkiLast = 0;
    LinkOrigin origin = LinkOrigin::Reviewer;
    LinkState state = LinkState::Accepted;
    std::string createdAt;
};

/// One simulation of a task: the hardware profile it ran with and the summary it produced, as JSON.
struct SimRun {
    std::int64_t id = 0;
    std::int64_t taskId = 0;
    std::string label;
    std::string profileJson;
    std::string summaryJson;
    std::string createdAt;
};

/// A finding (core/findings) the reviewer set aside, with why: the Findings dock greys it, reports list it with its
/// reason. `findingKey` names the finding within its task's runs (findings::findingKey: the rule id, "#2" for a
/// rule's second finding); `rule` and `title` keep what it said when it was dismissed.
struct FindingDismissal {
    std::int64_t id = 0;
    std::int64_t taskId = 0;
    std::string findingKey;
    std::string rule;
    std::string title;
    std::string reason;
    std::string author;
    std::string createdAt;
    bool operator==(const FindingDismissal&) const = default;
};

struct Reviewer {
    std::int64_t id = 0;
    std::string name;
    std::string addedAt;
};

// Names as stored in the file and shown on the command line ("in_progress", "nki_lines", "blocking").
[[nodiscard]] std::string_view toString(TaskStatus value);
[[nodiscard]] std::string_view toString(AnchorKind value);
[[nodiscard]] std::string_view toString(Severity value);
[[nodiscard]] std::string_view toString(LinkOrigin value);
[[nodiscard]] std::string_view toString(LinkState value);
[[nodiscard]] std::optional<TaskStatus> parseTaskStatus(std::string_view text);
[[nodiscard]] std::optional<AnchorKind> parseAnchorKind(std::string_view text);
[[nodiscard]] std::optional<Severity> parseSeverity(std::string_view text);
[[nodiscard]] std::optional<LinkOrigin> parseLinkOrigin(std::string_view text);
[[nodiscard]] std::optional<LinkState> parseLinkState(std::string_view text);

} // namespace kl::core

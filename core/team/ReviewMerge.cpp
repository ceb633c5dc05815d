#include "team/ReviewMerge.h"

#include "db/Query.h"
#include "review/ReviewFile.h"
#include "review/ReviewFileProbe.h"
#include "trust/Sha256.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <stdlib.h>

namespace kl::core::team {
namespace {

namespace fs = std::filesystem;

/// A private scratch folder, removed with everything in it when the merge ends.
class ScratchDir {
public:
    ScratchDir() {
        std::string pattern = (fs::temp_directory_path() / "kl-merge-XXXXXX").string();
        if (::mkdtemp(pattern.data()) != nullptr) {
            m_path = pattern;
        }
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!m_path.empty()) {
            fs::remove_all(m_path, ec);
        }
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

/// Opens a consistent copy of the review at `path`: read through a read-only connection into the scratch
/// folder, then opened (and migrated) there, so the input itself is never written.
Expected<ReviewFile> openSnapshot(const std::string& path, const fs::path& scratch, std::size_t index) {
    KL_TRY(probeReviewFile(path));
    auto db = Database::open(path, Database::OpenMode::ReadOnly);
    KL_TRY(db);
    const std::string copy = (scratch / fmt::format("input-{}.klreview", index)).string();
    if (auto done = execute(*db, "VACUUM INTO ?1", copy); !done) {
        Error error = done.error();
        error.file = path;
        return std::unexpected(error);
    }
    auto file = ReviewFile::open(copy);
    if (!file) {
        Error error = file.error();
        error.file = path; // the user's file, not our scratch copy
        return std::unexpected(error);
    }
    return file;
}

std::string contentHash(const std::vector<TaskFile>& files) {
    std::vector<const TaskFile*> sorted;
    for (const TaskFile& f : files) {
        sorted.push_back(&f);
    }
    std::ranges::sort(sorted, {}, [](const TaskFile* f) { return f->path; });
    Sha256 hash;
    for (const TaskFile* f : sorted) {
        hash.updateField(f->path);
        hash.updateField(f->role);
        hash.updateField(f->content);
    }
    return hash.hex();
}

std::string annotationKey(const Annotation& a, std::int64_t task) {
    const Anchor& an = a.anchor;
    return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", task, a.author, a.createdAt, toString(an.kind), an.t0Ns,
                       an.t1Ns, an.instructionId, an.firstLine, an.lastLine, a.rubricItem, a.text);
}

int progress(TaskStatus status) {
    return status == TaskStatus::Done ? 2 : (status == TaskStatus::InProgress ? 1 : 0);
}

/// One input, opened, with the content hash of each of its tasks.
struct Input {
    std::string path;
    ReviewFile file;
    std::vector<std::pair<Task, std::string>> tasks; ///< task, content hash
};

Expected<void> readTasks(Input& in) {
    auto tasks = in.file.tasks().list();
    KL_TRY(tasks);
    for (const Task& t : *tasks) {
        auto files = in.file.tasks().files(t.id);
        KL_TRY(files);
        in.tasks.emplace_back(t, contentHash(*files));
    }
    return {};
}

/// Every reason the inputs cannot be merged, one per line; empty when they can.
std::string conflicts(const std::vector<Input>& inputs) {
    std::string out;
    std::map<std::string, std::pair<std::string, const std::string*>> seen; // folder -> hash, file
    for (const Input& in : inputs) {
        if (in.file.rubricJson() != inputs.front().file.rubricJson()) {
            out += fmt::format("{} uses rubric \"{}\", {} uses \"{}\" (or another version of it)\n", in.path,
                               in.file.rubric().id, inputs.front().path, inputs.front().file.rubric().id);
        }
        for (const auto& [task, hash] : in.tasks) {
            auto [it, fresh] = seen.try_emplace(task.folder, hash, &in.path);
            if (!fresh && it->second.first != hash) {
                out += fmt::format("task \"{}\" has different files in {} and {}\n", task.folder, *it->second.second,
                                   in.path);
            }
        }
    }
    return out;
}

/// Writes the inputs into the merged file, one after another.
class Merger {
public:
    Merger(ReviewFile& out, MergeSummary& summary) : m_out(out), m_summary(summary) {}

    Expected<void> add(Input& in) {
        const bool team = in.file.team().isTeamReview().value_or(false);
        for (const auto& [task, hash] : in.tasks) {
            auto target = taskFor(in, task);
            KL_TRY(target);
            KL_TRY(addScores(in, task.id, *target, team));
            KL_TRY(addAnnotations(in, task.id, *target));
            KL_TRY(addLinksAndRuns(in, task.id, *target));
        }
        return {};
    }

    /// Task progress: a team task is only as far as its least advanced reviewer; time is the longest spent.
    Expected<void> finishTasks() {
        for (const auto& [folder, state] : m_tasks) {
            KL_TRY(m_out.tasks().setStatus(state.id, state.status));
            if (state.seconds > 0) {
                KL_TRY(m_out.tasks().addSecondsSpent(state.id, state.seconds));
            }
        }
        auto reviewers = m_out.reviewers().list();
        KL_TRY(reviewers);
        for (const Reviewer& r : *reviewers) {
            m_summary.reviewers.push_back(r.name);
        }
        std::ranges::sort(m_summary.reviewers);
        m_summary.tasks = m_tasks.size();
        return {};
    }

private:
    struct TaskState {
        std::int64_t id = 0;
        TaskStatus status = TaskStatus::Done;
        std::int64_t seconds = 0;
    };

    Expected<std::int64_t> taskFor(Input& in, const Task& task) {
        auto it = m_tasks.find(task.folder);
        if (it == m_tasks.end()) {
            auto files = in.file.tasks().files(task.id);
            KL_TRY(files);
            auto added = m_out.tasks().add(task.folder, task.title, *files);
            KL_TRY(added);
            it = m_tasks.emplace(task.folder, TaskState{added->id, task.status, task.secondsSpent}).first;
        }
        TaskState& s = it->second;
        if (progress(task.status) < progress(s.status)) {
            s.status = task.status;
        }
        s.seconds = std::max(s.seconds, task.secondsSpent);
        return s.id;
    }

    Expected<void> addScores(Input& in, std::int64_t from, std::int64_t to, bool team) {
        auto finals = in.file.scores().list(from);
        KL_TRY(finals);
        std::vector<ReviewerScore> own;
        if (team) {
            auto scores = in.file.team().reviewerScores(from);
            KL_TRY(scores);
            own = *scores;
            KL_TRY(addFinals(in, *finals, from, to));
        } else {
            for (const Score& s : *finals) { // a single reviewer's file: its scores are that reviewer's own
                own.push_back({from, s.itemId, s.reviewer, s.value, s.updatedAt});
            }
        }
        for (ReviewerScore s : own) {
            s.taskId = to;
            KL_TRY(m_out.reviewers().add(s.reviewer));
            auto added = m_out.team().addReviewerScore(s);
            if (!added) {
                Error error = added.error();
                error.file = in.path;
                return std::unexpected(error);
            }
            (*added ? m_summary.reviewerScores : m_summary.duplicatesSkipped)++;
        }
        return {};
    }

    /// A merged input's agreed grades and their reasons; two different agreed grades for one item conflict.
    Expected<void> addFinals(Input& in, const std::vector<Score>& finals, std::int64_t from, std::int64_t to) {
        auto reasons = in.file.team().adjudications(from);
        KL_TRY(reasons);
        for (Score s : finals) {
            auto had = m_out.scores().find(to, s.itemId);
            KL_TRY(had);
            if (*had && (*had)->value != s.value) {
                return makeError(ErrorCode::InvalidArgument,
                                 fmt::format("the agreed grade of \"{}\" is {} in {} but {} in an earlier file",
                                             s.itemId, s.value, in.path, (*had)->value),
                                 in.path, 0, "adjudicate in one merged file, then merge new reviews into it");
            }
            s.taskId = to;
            KL_TRY(m_out.scores().restore(s));
        }
        for (Adjudication a : *reasons) {
            a.taskId = to;
            KL_TRY(m_out.team().restoreAdjudication(a));
        }
        return {};
    }

    Expected<void> addAnnotations(Input& in, std::int64_t from, std::int64_t to) {
        AnnotationFilter filter;
        filter.taskId = from;
        auto notes = in.file.annotations().list(filter);
        KL_TRY(notes);
        for (const Annotation& a : *notes) {
            auto snapshot = in.file.annotations().snapshot(a.id);
            KL_TRY(snapshot);
            snapshot->annotation.taskId = to;
            const std::string key = annotationKey(a, to);
            auto known = m_annotations.find(key);
            if (known == m_annotations.end()) {
                auto id = m_out.annotations().import(*snapshot);
                if (!id) {
                    Error error = id.error();
                    error.file = in.path;
                    return std::unexpected(error);
                }
                m_annotations.emplace(key, *id);
                ++m_summary.annotations;
                m_summary.replies += snapshot->replies.size();
                continue;
            }
            ++m_summary.duplicatesSkipped;
            KL_TRY(addMissingReplies(known->second, snapshot->replies));
        }
        return {};
    }

    /// The same annotation in two files may have different replies (each reviewer answered in their copy).
    Expected<void> addMissingReplies(std::int64_t annotation, const std::vector<Reply>& replies) {
        auto existing = m_out.annotations().snapshot(annotation);
        KL_TRY(existing);
        bool changed = false;
        for (const Reply& r : replies) {
            const bool present = std::ranges::any_of(existing->replies, [&](const Reply& e) {
                return e.author == r.author && e.createdAt == r.createdAt && e.text == r.text;
            });
            if (present) {
                ++m_summary.duplicatesSkipped;
            } else {
                existing->replies.push_back(r);
                ++m_summary.replies;
                changed = true;
            }
        }
        if (!changed) {
            return {};
        }
        std::ranges::sort(existing->replies, {}, [](const Reply& r) { return r.createdAt; });
        return m_out.annotations().restore(*existing);
    }

    Expected<void> addLinksAndRuns(Input& in, std::int64_t from, std::int64_t to) {
        auto links = in.file.links().list(from);
        auto have = m_out.links().list(to);
        KL_TRY(links);
        KL_TRY(have);
        for (LineLink l : *links) {
            const bool present = std::ranges::any_of(*have, [&](const LineLink& h) {
                return h.cudaFirst == l.cudaFirst && h.cudaLast == l.cudaLast && h.nkiFirst == l.nkiFirst &&
                       h.nkiLast == l.nkiLast && h.origin == l.origin;
            });
            if (!present) {
                l.taskId = to;
                KL_TRY(m_out.links().add(l));
            }
        }
        auto runs = in.file.runs().list(from);
        auto haveRuns = m_out.runs().list(to);
        KL_TRY(runs);
        KL_TRY(haveRuns);
        for (SimRun r : *runs) {
            const bool present = std::ranges::any_of(
                *haveRuns, [&](const SimRun& h) { return h.label == r.label && h.summaryJson == r.summaryJson; });
            if (!present) {
                r.taskId = to;
                KL_TRY(m_out.runs().add(r));
            }
        }
        return copyNumericsRuns(in, from, to);
    }

    /// Numerics runs: each distinct document once (the same run merged from two reviewers' copies is one run).
    Expected<void> copyNumericsRuns(Input& in, std::int64_t from, std::int64_t to) {
        auto runs = in.file.numericsRuns().list(from);
        auto have = m_out.numericsRuns().list(to);
        KL_TRY(runs);
        KL_TRY(have);
        for (const NumericsRun& r : *runs) {
            const bool present =
                std::ranges::any_of(*have, [&](const NumericsRun& h) { return h.document == r.document; });
            if (!present) {
                KL_TRY(m_out.numericsRuns().add(to, r.document));
            }
        }
        return {};
    }

    ReviewFile& m_out;
    MergeSummary& m_summary;
    std::map<std::string, TaskState> m_tasks;          ///< by folder
    std::map<std::string, std::int64_t> m_annotations; ///< annotationKey -> id in the merged file
};

Expected<MergeSummary> writeMerged(std::vector<Input>& inputs, const std::string& path) {
    const ReviewFile& first = inputs.front().file;
    auto out = ReviewFile::create(path, {first.rubricJson(), first.rubric().id, ""});
    KL_TRY(out);
    // A scratch file copied into place only when complete: waiting for the disk after every row (the review
    // file's usual durability) would only make a merge of thousands of rows slow.
    KL_TRY(out->database().exec("PRAGMA synchronous = OFF"));
    MergeSummary summary;
    Merger merger(*out, summary);
    for (Input& in : inputs) {
        KL_TRY(merger.add(in));
    }
    KL_TRY(merger.finishTasks());
    return summary;
}

} // namespace

Expected<MergeSummary> mergeReviews(const std::vector<std::string>& inputs, const std::string& output) {
    std::error_code ec;
    if (inputs.empty()) {
        return makeError(ErrorCode::InvalidArgument, "no reviews to merge", {}, 0, "name two or more .klreview files");
    }
    if (fs::exists(output, ec)) {
        return makeError(ErrorCode::InvalidArgument, "file already exists; a merge never writes over a file", output, 0,
                         "choose a new name for the merged review");
    }
    ScratchDir scratch;
    if (scratch.path().empty()) {
        return makeError(ErrorCode::Io, "cannot create a scratch folder for the merge",
                         fs::temp_directory_path(ec).string());
    }
    std::vector<Input> opened;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        auto file = openSnapshot(inputs[i], scratch.path(), i);
        KL_TRY(file);
        opened.push_back({inputs[i], std::move(*file), {}});
        KL_TRY(readTasks(opened.back()));
    }
    if (const std::string problems = conflicts(opened); !problems.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("these reviews cannot be merged; nothing was written:\n{}", problems), {}, 0,
                         "merge reviews of the same task set (same task files and rubric)");
    }
    // Built under a scratch name beside the output and renamed when complete: a failed merge leaves nothing.
    const std::string partial = (scratch.path() / "merged.klreview").string();
    auto summary = writeMerged(opened, partial);
    if (!summary) {
        return summary;
    }
    fs::copy_file(partial, output, fs::copy_options::none, ec);
    if (ec) {
        if (ec != std::errc::file_exists) { // a half-written copy of ours, never someone else's file
            std::error_code ignored;
            fs::remove(output, ignored);
        }
        return makeError(ErrorCode::Io, fmt::format("cannot write the merged review: {}", ec.message()), output);
    }
    return summary;
}

} // namespace kl::core::team

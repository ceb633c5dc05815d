#pragma once

#include "review/ReviewFile.h"
#include "review/ReviewTypes.h"
#include "support/Subprocess.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QUndoStack;

namespace kl::core {
class ReviewFile;
template <typename Target> class UndoableEdit;
using EditCommand = UndoableEdit<ReviewFile>;
} // namespace kl::core

namespace kl::app {

/// The open review file on the GUI side: owns the ReviewFile, a QUndoStack around core's edit commands,
/// the current task and the reviewer's name. Every edit is written to the file when it is made (core does
/// the SQL, in WAL mode); the session only turns results into signals and failures into messages.
///
/// Tasks are traced from the copies of their files kept in the review, written to a private temporary
/// folder per task, so a review file mailed to another reviewer opens and simulates anywhere.
class ReviewSession : public QObject {
    Q_OBJECT
public:
    explicit ReviewSession(QObject* parent = nullptr);
    ~ReviewSession() override;

    /// Opens an existing review. On failure the message says why (not a review, newer version, corrupt).
    [[nodiscard]] bool open(const QString& path, QString* error);
    /// Creates a review from every task folder (a folder with task.json) directly inside `folder`.
    [[nodiscard]] bool createFromFolder(const QString& reviewPath, const QString& folder, const QString& rubricPath,
                                        QString* error);
    void close();
    [[nodiscard]] bool isOpen() const { return m_file != nullptr; }
    /// True when the open review cannot be written (read-only mount, no permission); edits are refused with a
    /// message and bookkeeping (time spent, runs) is skipped. readOnlyReason() says why, for a banner.
    [[nodiscard]] bool isReadOnly() const;
    [[nodiscard]] QString readOnlyReason() const;
    /// Writes a copy of the open review to `path` (a new file) and continues in the copy: Save As, and the way
    /// to edit a read-only review. The original is left as it is.
    [[nodiscard]] bool saveCopyAs(const QString& path, QString* error);
    [[nodiscard]] QString path() const;
    [[nodiscard]] core::ReviewFile* file() const { return m_file.get(); }
    [[nodiscard]] QUndoStack* undoStack() const { return m_undo; }

    void setReviewer(const QString& name) { m_reviewer = name; }
    [[nodiscard]] QString reviewer() const { return m_reviewer; }

    [[nodiscard]] std::vector<core::Task> tasks() const;
    void setCurrentTask(std::int64_t taskId);
    [[nodiscard]] std::optional<std::int64_t> currentTask() const { return m_current; }
    /// A folder holding the task's files as task.json names them, ready for the front end.
    [[nodiscard]] QString materializeTask(std::int64_t taskId, QString* error);
    void setTaskStatus(std::int64_t taskId, core::TaskStatus status);
    /// Adds review time to the current task (called when the task changes and when the window closes).
    void flushTimeSpent();

    [[nodiscard]] std::vector<core::Annotation> annotations() const; ///< of the current task
    [[nodiscard]] std::vector<core::Reply> replies(std::int64_t annotationId) const;
    void addAnnotation(core::Annotation annotation);
    void updateAnnotation(const core::Annotation& annotation);
    void deleteAnnotation(std::int64_t id);
    void addReply(std::int64_t annotationId, const QString& text);

    /// Findings the reviewer dismissed in the current task. Dismiss and Restore go through the undo stack like
    /// every other edit (annotationsChanged follows each, as for annotations).
    [[nodiscard]] std::vector<core::FindingDismissal> findingDismissals() const;
    void dismissFinding(core::FindingDismissal dismissal);
    void restoreFinding(const std::string& findingKey);

    [[nodiscard]] std::optional<core::Scorecard> scorecard() const; ///< of the current task
    void setScore(const std::string& itemId, std::optional<int> value);
    /// Sets the agreed grade of a disputed item in a team review, with the reason (undoable).
    void adjudicate(std::int64_t taskId, const std::string& itemId, int value, const QString& reason);
    void recordRun(const std::string& label, const std::string& profileJson, const std::string& summaryJson);
    /// Keeps a numerics run (its document, docs/numerics-json.md) for the current task; nothing without one.
    /// Returns the stored run's id, or 0.
    std::int64_t recordNumericsRun(const std::string& document);

signals:
    void opened();
    void closed();
    void tasksChanged();
    void annotationsChanged();
    void scoresChanged();
    void failed(const QString& message);

private:
    void adopt(core::ReviewFile file);
    void push(std::unique_ptr<core::EditCommand> command, bool changesScores, bool changesTasks = false);
    bool check(const kl::Expected<void>& result);

    std::unique_ptr<core::ReviewFile> m_file;
    QUndoStack* m_undo = nullptr;
    QString m_reviewer;
    std::optional<std::int64_t> m_current;
    qint64 m_currentSince = 0; ///< monotonic ms when the current task became current
    std::map<std::int64_t, std::unique_ptr<core::TemporaryDirectory>> m_taskFolders;
};

} // namespace kl::app

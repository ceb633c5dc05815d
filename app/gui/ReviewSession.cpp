#include "gui/ReviewSession.h"

#include "common/EditUndoCommand.h"
#include "common/QtText.h"

#include "review/AnnotationCommands.h"
#include "review/AddReplyCommand.h"
#include "review/AdjudicateCommand.h"
#include "review/FindingDismissalCommands.h"
#include "review/SetScoreCommand.h"
#include "review/SetTaskStatusCommand.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QUndoStack>

#include <filesystem>
#include <fstream>

namespace kl::app {

using views::toQString;

namespace {

QString describe(const Error& e) {
    QString text = toQString(e.message);
    if (!e.file.empty()) {
        text = toQString(e.file) + QStringLiteral(": ") + text;
    }
    if (!e.hint.empty()) {
        text += QStringLiteral(" (") + toQString(e.hint) + QLatin1Char(')');
    }
    return text;
}

qint64 nowMs() {
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}

} // namespace

ReviewSession::ReviewSession(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

ReviewSession::~ReviewSession() {
    flushTimeSpent();
}

QString ReviewSession::path() const {
    return m_file ? toQString(m_file->path()) : QString();
}

bool ReviewSession::open(const QString& path, QString* error) {
    auto file = core::ReviewFile::open(path.toStdString());
    if (!file) {
        *error = describe(file.error());
        return false;
    }
    adopt(std::move(*file));
    return true;
}

bool ReviewSession::isReadOnly() const {
    return m_file && m_file->readOnly();
}

QString ReviewSession::readOnlyReason() const {
    return m_file ? toQString(m_file->readOnlyReason()) : QString();
}

bool ReviewSession::saveCopyAs(const QString& path, QString* error) {
    if (!m_file) {
        *error = tr("no review is open");
        return false;
    }
    flushTimeSpent();
    if (auto saved = m_file->saveCopy(path.toStdString()); !saved) {
        *error = describe(saved.error());
        return false;
    }
    const std::optional<std::int64_t> task = m_current;
    if (!open(path, error)) {
        return false;
    }
    if (task) {
        setCurrentTask(*task);
    }
    return true;
}

bool ReviewSession::createFromFolder(const QString& reviewPath, const QString& folder, const QString& rubricPath,
                                     QString* error) {
    const QString rubricFile = rubricPath.isEmpty()
                                   ? toQString((core::resourcesDir() / "rubrics" / "nki-migration.json").string())
                                   : rubricPath;
    auto rubricJson = core::readTextFile(rubricFile.toStdString());
    if (!rubricJson) {
        *error = describe(rubricJson.error());
        return false;
    }
    QStringList taskFolders;
    const QDir dir(folder);
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFileInfo::exists(dir.filePath(name + QStringLiteral("/task.json")))) {
            taskFolders << dir.filePath(name);
        }
    }
    if (QFileInfo::exists(dir.filePath(QStringLiteral("task.json")))) {
        taskFolders << dir.absolutePath(); // a single task folder is a review of one task
    }
    if (taskFolders.isEmpty()) {
        *error = tr("%1 holds no task folders (folders with a task.json)").arg(folder);
        return false;
    }
    core::ReviewFile::CreateOptions options{*rubricJson, QFileInfo(rubricFile).fileName().toStdString(),
                                            m_reviewer.toStdString()};
    auto file = core::ReviewFile::create(reviewPath.toStdString(), options);
    if (!file) {
        *error = describe(file.error());
        return false;
    }
    for (const QString& taskFolder : taskFolders) {
        auto task = file->tasks().addFromFolder(taskFolder.toStdString());
        if (!task) {
            *error = describe(task.error());
            return false;
        }
    }
    adopt(std::move(*file));
    return true;
}

void ReviewSession::adopt(core::ReviewFile file) {
    close();
    m_file = std::make_unique<core::ReviewFile>(std::move(file));
    emit opened();
    emit tasksChanged();
}

void ReviewSession::close() {
    if (!m_file) {
        return;
    }
    flushTimeSpent();
    m_undo->clear();
    m_current.reset();
    m_taskFolders.clear();
    m_file.reset();
    emit closed();
}

std::vector<core::Task> ReviewSession::tasks() const {
    if (!m_file) {
        return {};
    }
    auto list = m_file->tasks().list();
    return list ? *list : std::vector<core::Task>{};
}

void ReviewSession::setCurrentTask(std::int64_t taskId) {
    if (m_current == taskId) {
        return;
    }
    flushTimeSpent();
    m_current = taskId;
    m_currentSince = nowMs();
    // Undo history belongs to the task it was made in; mixing tasks would undo out of sight.
    m_undo->clear();
    for (const auto& task : tasks()) {
        // Opening a task to do starts it: bookkeeping, not an edit to undo.
        if (task.id == taskId && task.status == core::TaskStatus::Todo && !isReadOnly() &&
            check(m_file->tasks().setStatus(taskId, core::TaskStatus::InProgress))) {
            emit tasksChanged();
        }
    }
    emit annotationsChanged();
    emit scoresChanged();
}

void ReviewSession::flushTimeSpent() {
    if (!m_file || !m_current || m_file->readOnly()) {
        return;
    }
    const qint64 now = nowMs();
    const qint64 seconds = (now - m_currentSince) / 1000;
    if (seconds > 0) {
        check(m_file->tasks().addSecondsSpent(*m_current, seconds));
        m_currentSince += seconds * 1000;
    }
}

QString ReviewSession::materializeTask(std::int64_t taskId, QString* error) {
    if (!m_file) {
        *error = tr("no review is open");
        return {};
    }
    auto files = m_file->tasks().files(taskId);
    if (!files) {
        *error = describe(files.error());
        return {};
    }
    auto& folder = m_taskFolders[taskId];
    if (!folder) {
        folder = std::make_unique<core::TemporaryDirectory>();
    }
    namespace fs = std::filesystem;
    for (const auto& f : *files) {
        const fs::path target = folder->path() / (f.role == "task_json" ? fs::path("task.json") : fs::path(f.path));
        // Paths come from the review file: keep them inside the task folder.
        const auto relative = target.lexically_normal().lexically_relative(folder->path());
        if (relative.empty() || relative.begin()->string() == "..") {
            *error = tr("the review names a file outside its task folder: %1").arg(toQString(f.path));
            return {};
        }
        fs::create_directories(target.parent_path());
        std::ofstream(target, std::ios::binary) << f.content;
    }
    return toQString(folder->path().string());
}

void ReviewSession::setTaskStatus(std::int64_t taskId, core::TaskStatus status) {
    if (!m_file) {
        return;
    }
    if (auto task = m_file->tasks().get(taskId); task && task->status == status) {
        return; // nothing to change, nothing to undo
    }
    push(std::make_unique<core::SetTaskStatusCommand>(taskId, status), false, true);
}

std::vector<core::Annotation> ReviewSession::annotations() const {
    if (!m_file || !m_current) {
        return {};
    }
    core::AnnotationFilter filter;
    filter.taskId = *m_current;
    auto list = m_file->annotations().list(filter);
    return list ? *list : std::vector<core::Annotation>{};
}

std::vector<core::Reply> ReviewSession::replies(std::int64_t annotationId) const {
    if (!m_file) {
        return {};
    }
    auto list = m_file->annotations().replies(annotationId);
    return list ? *list : std::vector<core::Reply>{};
}

void ReviewSession::push(std::unique_ptr<core::EditCommand> command, bool changesScores, bool changesTasks) {
    if (!m_file) {
        emit failed(tr("Open or create a review file first (File > New Review / Open)."));
        return;
    }
    if (m_file->readOnly()) {
        emit failed(tr("This review is read-only (%1): nothing was changed. File > Save Review As... makes an "
                       "editable copy.")
                        .arg(readOnlyReason()));
        return;
    }
    auto changed = [this, changesScores, changesTasks] {
        emit annotationsChanged();
        if (changesScores) {
            emit scoresChanged();
        }
        if (changesTasks) {
            emit tasksChanged();
        }
    };
    auto* undoable = new views::EditUndoCommand<core::ReviewFile>(
        std::move(command), [this] { return m_file.get(); }, std::move(changed),
        [this](const Error& error) { emit failed(describe(error)); });
    m_undo->push(undoable); // runs redo(): the edit is in the file when push returns
}

void ReviewSession::addAnnotation(core::Annotation annotation) {
    annotation.taskId = m_current.value_or(0);
    if (annotation.author.empty()) {
        annotation.author = m_reviewer.toStdString();
    }
    push(std::make_unique<core::CreateAnnotationCommand>(std::move(annotation)), true);
}

void ReviewSession::updateAnnotation(const core::Annotation& annotation) {
    push(std::make_unique<core::UpdateAnnotationCommand>(annotation), true);
}

void ReviewSession::deleteAnnotation(std::int64_t id) {
    push(std::make_unique<core::DeleteAnnotationCommand>(id), true);
}

void ReviewSession::addReply(std::int64_t annotationId, const QString& text) {
    if (!m_file) {
        return;
    }
    push(std::make_unique<core::AddReplyCommand>(annotationId, m_reviewer.toStdString(), text.toStdString()), false);
}

std::vector<core::FindingDismissal> ReviewSession::findingDismissals() const {
    if (!m_file || !m_current) {
        return {};
    }
    auto list = m_file->findingDismissals().list(*m_current);
    return list ? *list : std::vector<core::FindingDismissal>{};
}

void ReviewSession::dismissFinding(core::FindingDismissal dismissal) {
    dismissal.taskId = m_current.value_or(0);
    if (dismissal.author.empty()) {
        dismissal.author = m_reviewer.toStdString();
    }
    push(std::make_unique<core::DismissFindingCommand>(std::move(dismissal)), false);
}

void ReviewSession::restoreFinding(const std::string& findingKey) {
    push(std::make_unique<core::RestoreFindingCommand>(m_current.value_or(0), findingKey), false);
}

std::optional<core::Scorecard> ReviewSession::scorecard() const {
    if (!m_file || !m_current) {
        return std::nullopt;
    }
    auto card = m_file->scorecard(*m_current);
    return card ? std::optional(*card) : std::nullopt;
}

void ReviewSession::setScore(const std::string& itemId, std::optional<int> value) {
    if (!m_current) {
        return;
    }
    push(std::make_unique<core::SetScoreCommand>(*m_current, itemId, value, m_reviewer.toStdString()), true);
}

void ReviewSession::adjudicate(std::int64_t taskId, const std::string& itemId, int value, const QString& reason) {
    push(std::make_unique<core::AdjudicateCommand>(taskId, itemId, value, reason.toStdString(),
                                                   m_reviewer.toStdString()),
         true);
}

void ReviewSession::recordRun(const std::string& label, const std::string& profileJson,
                              const std::string& summaryJson) {
    if (!m_file || !m_current || m_file->readOnly()) {
        return;
    }
    core::SimRun run;
    run.taskId = *m_current;
    run.label = label;
    run.profileJson = profileJson;
    run.summaryJson = summaryJson;
    if (auto added = m_file->runs().add(run); !added) {
        emit failed(describe(added.error()));
    }
}

std::int64_t ReviewSession::recordNumericsRun(const std::string& document) {
    if (!m_file || !m_current || m_file->readOnly()) {
        return 0;
    }
    auto added = m_file->numericsRuns().add(*m_current, document);
    if (!added) {
        emit failed(describe(added.error()));
        return 0;
    }
    return added->id;
}

bool ReviewSession::check(const kl::Expected<void>& result) {
    if (!result) {
        emit failed(describe(result.error()));
        return false;
    }
    return true;
}

} // namespace kl::app

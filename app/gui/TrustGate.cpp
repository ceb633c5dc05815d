#include "gui/TrustGate.h"

#include "common/QtText.h"

#include "gui/WorkspaceTrust.h"

#include "common/TrustPanel.h"
#include "review/ReviewFile.h"
#include "task/TaskSpec.h"
#include "trust/TrustStore.h"

#include <QDir>
#include <QFileInfo>

namespace kl::app {

using views::toQString;

namespace {

constexpr int kRunWithoutRemembering = -1;
constexpr qsizetype kMaxListedTasks = 8;

/// The rows every kind of subject shares: what runs and how it is called.
void addCallRows(const core::RunPreview& p, QList<QPair<QString, QString>>& rows) {
    rows.append({QObject::tr("Function"),
                 p.kernelName.empty() ? QObject::tr("(the file's only kernel)") : toQString(p.kernelName)});
    QStringList args;
    for (const auto& a : p.arguments) {
        args << toQString(a);
    }
    if (!args.isEmpty()) {
        rows.append({QObject::tr("Arguments"), args.join(QLatin1Char('\n'))});
    }
    QStringList scalars;
    for (const auto& s : p.scalars) {
        scalars << toQString(s);
    }
    if (!scalars.isEmpty()) {
        rows.append({QObject::tr("Scalars"), scalars.join(QLatin1Char('\n'))});
    }
}

} // namespace

TrustGate::TrustGate(QObject* parent)
    : QObject(parent), m_trust(new WorkspaceTrust({}, this)), m_panel(new views::TrustPanel) {
    connect(m_trust, &WorkspaceTrust::problem, this, &TrustGate::problem);
    connect(m_panel, &views::TrustPanel::trustContentRequested, this, [this] {
        choose(m_waiting && m_waiting->contentHash.empty() ? kRunWithoutRemembering
                                                           : static_cast<int>(core::TrustKind::Content));
    });
    connect(m_panel, &views::TrustPanel::trustFolderRequested, this,
            [this] { choose(static_cast<int>(core::TrustKind::Folder)); });
    connect(m_panel, &views::TrustPanel::trustAuthorRequested, this,
            [this] { choose(static_cast<int>(core::TrustKind::Author)); });
}

std::optional<core::TrustSubject> TrustGate::subjectOf(const Target& target) {
    auto subject = target.review                    ? core::describeReview(*target.review)
                   : QFileInfo(target.path).isDir() ? core::describeTaskFolder(target.path.toStdString())
                                                    : core::describeKernelFile(target.path.toStdString());
    if (!subject) {
        emit problem(tr("Not run: %1").arg(toQString(formatError(subject.error()))));
        return std::nullopt;
    }
    return std::move(*subject);
}

bool TrustGate::mayRun(const Target& target) {
    auto subject = subjectOf(target);
    if (!subject) {
        m_waiting.reset();
        return false;
    }
    if (m_trust->decide(*subject).trusted() ||
        (subject->contentHash.empty() && !m_runOnce.empty() && subject->location == m_runOnce)) {
        m_waiting.reset();
        return true;
    }
    showPrompt(*subject, target);
    m_waiting = std::move(*subject);
    return false;
}

void TrustGate::showPrompt(const core::TrustSubject& subject, const Target& target) {
    views::TrustPrompt prompt;
    const core::RunPreview& p = subject.preview;
    auto& rows = prompt.rows;
    const QString readIt = tr("Opening it ran nothing. Simulating it runs its Python code (the kernel and the modules "
                              "it imports) on this computer, inside KernelLens's sandbox. Read the kernel in the NKI "
                              "pane, and trust it only if you know where it came from.");
    if (subject.kind == core::TrustSubject::Kind::Review) {
        prompt.heading = tr("This review's kernels have not run: the review is not trusted yet");
        prompt.explanation = readIt + tr(" Trusting the review trusts the kernels of all its tasks.");
        rows.append({tr("Review"), toQString(subject.location)});
        if (!p.author.empty()) {
            rows.append({tr("Author"), tr("%1 (as the file says; not verified)").arg(toQString(p.author))});
            prompt.author = toQString(p.author);
        }
        QStringList tasks;
        for (const auto& t : p.tasks) {
            tasks << toQString(t);
        }
        const qsizetype count = tasks.size();
        if (count > kMaxListedTasks) {
            tasks = tasks.mid(0, kMaxListedTasks) << tr("... and %1 more").arg(count - kMaxListedTasks);
        }
        rows.append({tr("Tasks (%1)").arg(count), tasks.join(QLatin1Char('\n'))});
        if (auto task = core::describeTaskFolder(target.path.toStdString())) {
            const auto rel = task->preview.kernelFile.lexically_relative(task->location);
            rows.append(
                {tr("This task"), tr("%1, kernel file %2").arg(toQString(task->preview.title), toQString(rel))});
            addCallRows(task->preview, rows);
        }
    } else {
        const bool isTask = subject.kind == core::TrustSubject::Kind::TaskFolder;
        prompt.heading = isTask ? tr("This task has not run: it is not trusted yet")
                                : tr("This kernel has not run: it is not trusted yet");
        prompt.explanation = readIt;
        if (isTask) {
            rows.append({tr("Task"), toQString(p.title)});
            rows.append({tr("Folder"), toQString(subject.location)});
        }
        rows.append({tr("Kernel file"), toQString(p.kernelFile)});
        addCallRows(p, rows);
        if (!isTask && !target.kernelArgs.isEmpty()) {
            rows.append({tr("Arguments"), target.kernelArgs.join(QLatin1Char('\n'))});
        }
        rows.append({tr("Imports from"), toQString(p.codeRoot)});
    }
    if (const auto folder = core::folderToTrust(subject); !core::isTooBroadToTrust(folder)) {
        prompt.folder = toQString(folder);
    }
    prompt.rememberable = !subject.contentHash.empty();
    if (prompt.rememberable) {
        const QString hash = toQString(subject.contentHash).left(7 + 16) + QStringLiteral("...");
        rows.append({tr("Content"), p.hashedFiles == 1 ? tr("%1 over 1 file").arg(hash)
                                                       : tr("%1 over %2 files").arg(hash).arg(p.hashedFiles)});
    } else {
        prompt.warning = tr("Its content cannot be remembered (%1). Trust its folder, or run it once.")
                             .arg(toQString(subject.hashProblem));
    }
    m_panel->setPrompt(prompt);
}

void TrustGate::choose(int how) {
    if (!m_waiting) {
        return;
    }
    if (how == kRunWithoutRemembering) {
        m_runOnce = m_waiting->location;
    } else if (!m_trust->trust(*m_waiting, static_cast<core::TrustKind>(how))) {
        return; // the reason went to problem()
    }
    m_waiting.reset();
    emit trustGiven();
}

bool TrustGate::isTrusted(core::ReviewFile& review) const {
    auto subject = core::describeReview(review);
    return subject && m_trust->decide(*subject).trusted();
}

bool TrustGate::folderIsTrusted(const QString& folder) {
    const QDir dir(folder);
    QStringList taskFolders;
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFileInfo::exists(dir.filePath(name + QStringLiteral("/task.json")))) {
            taskFolders << dir.filePath(name);
        }
    }
    if (QFileInfo::exists(dir.filePath(QStringLiteral("task.json")))) {
        taskFolders << dir.absolutePath();
    }
    for (const QString& taskFolder : taskFolders) {
        auto subject = core::describeTaskFolder(taskFolder.toStdString());
        if (!subject || !m_trust->decide(*subject).trusted()) {
            return false;
        }
    }
    return !taskFolders.isEmpty();
}

void TrustGate::trustReview(core::ReviewFile& review) {
    auto subject = core::describeReview(review);
    if (!subject) {
        emit problem(toQString(formatError(subject.error())));
        return;
    }
    core::TrustEntry entry = core::contentTrust(*subject);
    entry.label += " (made from trusted task folders)";
    m_trust->record(std::move(entry));
}

} // namespace kl::app

#include "gui/WorkspaceTrust.h"

#include "support/ResourcePaths.h"

#include <QDir>
#include <QStandardPaths>

namespace kl::app {

namespace {

QString describe(const Error& e) {
    return QString::fromStdString(formatError(e));
}

} // namespace

WorkspaceTrust::WorkspaceTrust(const QString& storePath, QObject* parent)
    : QObject(parent), m_store((storePath.isEmpty() ? defaultStorePath() : storePath).toStdString()) {
    auto loaded = core::TrustStore::load(m_store.path());
    if (loaded) {
        m_store = std::move(*loaded);
        return;
    }
    m_loadProblem = describe(loaded.error());
    if (auto aside = core::TrustStore::setAside(m_store.path())) {
        m_loadProblem += tr(" It was moved to %1; trust given from now on is saved in a new file.")
                             .arg(QString::fromStdString(aside->string()));
    } else {
        m_canSave = false;
        m_loadProblem += tr(" Trust given in this session will not be remembered (%1).").arg(describe(aside.error()));
    }
}

QString WorkspaceTrust::defaultStorePath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("trust.json"));
}

QString WorkspaceTrust::storePath() const {
    return QString::fromStdString(m_store.path().string());
}

core::TrustDecision WorkspaceTrust::decide(const core::TrustSubject& subject) const {
    return m_store.decide(subject, core::examplesDir());
}

bool WorkspaceTrust::trust(const core::TrustSubject& subject, core::TrustKind how) {
    switch (how) {
    case core::TrustKind::Content:
        if (subject.contentHash.empty()) {
            emit problem(tr("%1 cannot be trusted by its content: %2")
                             .arg(QString::fromStdString(subject.location.string()),
                                  QString::fromStdString(subject.hashProblem)));
            return false;
        }
        return record(core::contentTrust(subject));
    case core::TrustKind::Folder:
        return record({core::TrustKind::Folder,
                       core::folderToTrust(subject).string(),
                       "opening " + core::contentTrust(subject).label,
                       {}});
    case core::TrustKind::Author:
        if (subject.authors.empty()) {
            return false;
        }
        return record({core::TrustKind::Author,
                       subject.authors.front(),
                       "author of " + subject.location.filename().string(),
                       {}});
    }
    return false;
}

bool WorkspaceTrust::trustFolder(const QString& folder) {
    return record(
        {core::TrustKind::Folder, QDir(folder).absolutePath().toStdString(), "added in Trusted Locations", {}});
}

bool WorkspaceTrust::revoke(core::TrustKind kind, const std::string& value) {
    if (!m_store.remove(kind, value)) {
        return false;
    }
    if (m_canSave) {
        if (auto saved = m_store.save(); !saved) {
            emit problem(tr("The change to trusted locations was not saved: %1").arg(describe(saved.error())));
        }
    }
    emit changed();
    return true;
}

bool WorkspaceTrust::record(core::TrustEntry entry) {
    if (auto added = m_store.add(std::move(entry)); !added) {
        emit problem(describe(added.error()));
        return false;
    }
    if (m_canSave) {
        if (auto saved = m_store.save(); !saved) {
            emit problem(tr("Trusted for this session only: %1").arg(describe(saved.error())));
        }
    }
    emit changed();
    return true;
}

} // namespace kl::app

#pragma once

#include "trust/TrustStore.h"

#include <QObject>
#include <QString>

namespace kl::app {

/// The GUI side of workspace trust: owns the user's core::TrustStore (trust.json in the application's config
/// folder), answers whether a subject may run and records the user's "Trust ..." choices, saving each at once.
///
/// A store that core refuses (broken, hostile, newer) trusts nothing: it is moved aside to trust.json.broken
/// and loadProblem() says so, so that new choices can still be saved. When even that fails, choices last for
/// this session only and each save says why.
class WorkspaceTrust : public QObject {
    Q_OBJECT
public:
    /// `storePath` empty: defaultStorePath().
    explicit WorkspaceTrust(const QString& storePath = {}, QObject* parent = nullptr);

    /// trust.json in QStandardPaths::AppConfigLocation.
    [[nodiscard]] static QString defaultStorePath();
    [[nodiscard]] QString storePath() const;
    /// Why the stored decisions could not be used, empty when they could.
    [[nodiscard]] QString loadProblem() const { return m_loadProblem; }

    [[nodiscard]] core::TrustDecision decide(const core::TrustSubject& subject) const;
    /// Records trust in the subject's content, its folder (core::folderToTrust) or its first author.
    bool trust(const core::TrustSubject& subject, core::TrustKind how);
    /// Trusts `folder` and everything below it (File > Trusted Locations > Add Folder).
    bool trustFolder(const QString& folder);
    bool revoke(core::TrustKind kind, const std::string& value);
    /// Adds `entry` and saves; false (with problem()) when core refuses it.
    bool record(core::TrustEntry entry);
    [[nodiscard]] const std::vector<core::TrustEntry>& entries() const { return m_store.entries(); }

signals:
    void changed();
    /// A choice could not be recorded or saved; the text names the file and what to do.
    void problem(const QString& text);

private:
    core::TrustStore m_store;
    QString m_loadProblem;
    bool m_canSave = true;
};

} // namespace kl::app

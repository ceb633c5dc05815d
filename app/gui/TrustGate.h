#pragma once

#include "trust/TrustSubject.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace kl::core {
class ReviewFile;
}

namespace kl::views {
class TrustPanel;
}

namespace kl::app {

class WorkspaceTrust;

/// The one place that lets a kernel run in the GUI (DESIGN.md, "Trust and isolation"). MainWindow asks
/// mayRun() before every trace; the gate works out what would run (core::describe*), asks WorkspaceTrust, and
/// when the answer is no fills the TrustPanel with what would run and the ways to trust it. When the user
/// picks one, the gate records it and emits trustGiven(); the window then asks again and runs.
///
/// A task of an open review is judged as the review (its stored sources, its file's folder, its author),
/// never by the temporary folder it is written to for the front end.
class TrustGate : public QObject {
    Q_OBJECT
public:
    struct Target {
        QString path;                       ///< a task folder or a kernel file
        core::ReviewFile* review = nullptr; ///< set when `path` is a task of this review
        QStringList kernelArgs;             ///< a bare kernel's --arg specs, to show them
    };

    explicit TrustGate(QObject* parent = nullptr);

    [[nodiscard]] WorkspaceTrust* trust() const { return m_trust; }
    [[nodiscard]] views::TrustPanel* panel() const { return m_panel; }

    /// True when `target` may run now. Otherwise false, and isWaiting() tells whether the panel shows it
    /// waiting for trust or it cannot run at all (the reason went to problem()).
    [[nodiscard]] bool mayRun(const Target& target);
    [[nodiscard]] bool isWaiting() const { return m_waiting.has_value(); }
    /// True when `review`'s kernels may run (File > Export Report re-simulates only then); shows nothing.
    [[nodiscard]] bool isTrusted(core::ReviewFile& review) const;
    /// True when every task folder in `folder` (New Review from Folder) is trusted already.
    [[nodiscard]] bool folderIsTrusted(const QString& folder);
    /// Records trust in `review`'s content: it was just made from trusted task folders.
    void trustReview(core::ReviewFile& review);

signals:
    /// The user trusted what the panel showed: ask mayRun() again and run.
    void trustGiven();
    void problem(const QString& text);

private:
    [[nodiscard]] std::optional<core::TrustSubject> subjectOf(const Target& target);
    void showPrompt(const core::TrustSubject& subject, const Target& target);
    void choose(int how); ///< a core::TrustKind, or -1 for "Run Without Remembering"

    WorkspaceTrust* m_trust = nullptr;
    views::TrustPanel* m_panel = nullptr;
    std::optional<core::TrustSubject> m_waiting; ///< what the panel shows
    std::filesystem::path m_runOnce;             ///< a location allowed to run without being remembered
};

} // namespace kl::app

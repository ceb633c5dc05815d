#pragma once

#include <QList>
#include <QPair>
#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;

namespace kl::views {

/// What the trust prompt says about a kernel that has not run: the rows of what would run and which ways of
/// trusting it make sense.
struct TrustPrompt {
    QString heading;                     ///< "This task has not run"
    QString explanation;                 ///< why, and what trusting it means
    QList<QPair<QString, QString>> rows; ///< "Kernel file" -> path, "Function" -> name, ...
    QString folder;                      ///< offered by "Trust Folder"; empty: not offered
    QString author;                      ///< offered by "Trust Author"; empty: not offered
    bool rememberable = true;            ///< false: the content could not be hashed: "Run Without Remembering"
    QString warning;                     ///< shown under the rows when not empty (why it cannot be remembered)
};

/// Stands in the timeline area while a task, kernel or review waits to be trusted (DESIGN.md, "Trust and
/// isolation"). It shows what would run and offers "Trust and Run", "Trust Folder" and "Trust Author"; it only
/// emits what the user chose; the owner records trust and runs.
class TrustPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrustPanel(QWidget* parent = nullptr);

    void setPrompt(const TrustPrompt& prompt);
    [[nodiscard]] QPushButton* trustButton() const { return m_trust; }
    [[nodiscard]] QPushButton* folderButton() const { return m_folder; }
    [[nodiscard]] QPushButton* authorButton() const { return m_author; }
    /// The rows as shown, "Label: value" per line, for tests and screen readers.
    [[nodiscard]] QString rowsText() const;

signals:
    void trustContentRequested();
    void trustFolderRequested();
    void trustAuthorRequested();
    void manageRequested();

private:
    QLabel* m_icon = nullptr;
    QLabel* m_heading = nullptr;
    QLabel* m_explanation = nullptr;
    QFormLayout* m_rows = nullptr;
    QLabel* m_warning = nullptr;
    QPushButton* m_trust = nullptr;
    QPushButton* m_folder = nullptr;
    QPushButton* m_author = nullptr;
    QList<QPair<QString, QString>> m_shown;
};

} // namespace kl::views

#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace kl::views {

/// A strip across the top of the window while the open review cannot be written (a read-only mount, a file
/// without write permission): it says why, so nobody scores for an hour and then learns nothing was kept, and
/// offers the way out, an editable copy. Hidden otherwise.
class ReadOnlyBanner : public QFrame {
    Q_OBJECT
public:
    explicit ReadOnlyBanner(QWidget* parent = nullptr);

    /// Shows the banner with `reason` ("it is on a read-only file system"); an empty reason hides it.
    void setReason(const QString& reason);
    [[nodiscard]] QString text() const;
    [[nodiscard]] QPushButton* saveCopyButton() const { return m_saveCopy; }

signals:
    void saveCopyRequested();

private:
    QLabel* m_text;
    QPushButton* m_saveCopy;
};

} // namespace kl::views

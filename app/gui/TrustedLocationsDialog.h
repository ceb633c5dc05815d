#pragma once

#include <QDialog>

class QPushButton;
class QTableView;

namespace kl::views {
class TrustedLocationsModel;
}

namespace kl::app {

class WorkspaceTrust;

/// File > Trusted Locations: every trust decision the user made (content, folders, authors) with what it was
/// given for; Remove revokes the selected ones at once, Add Folder trusts a folder ahead of opening it.
/// Bundled examples are always trusted and not listed.
class TrustedLocationsDialog : public QDialog {
    Q_OBJECT
public:
    explicit TrustedLocationsDialog(WorkspaceTrust* trust, QWidget* parent = nullptr);
    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] QPushButton* removeButton() const { return m_remove; }

private:
    void refresh();
    void updateRemove();
    void removeSelected();
    void addFolder();

    WorkspaceTrust* m_trust;
    views::TrustedLocationsModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QPushButton* m_remove = nullptr;
};

} // namespace kl::app

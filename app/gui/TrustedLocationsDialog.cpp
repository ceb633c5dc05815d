#include "gui/TrustedLocationsDialog.h"

#include "gui/WorkspaceTrust.h"

#include "common/TrustedLocationsModel.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace kl::app {

TrustedLocationsDialog::TrustedLocationsDialog(WorkspaceTrust* trust, QWidget* parent)
    : QDialog(parent), m_trust(trust) {
    setObjectName(QStringLiteral("trustedLocationsDialog"));
    setWindowTitle(tr("Trusted Locations"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Kernels matching an entry run when opened; anything else waits for \"Trust and "
                                "Run\". Bundled examples are always trusted. Stored in %1.")
                                 .arg(m_trust->storePath()));
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_model = new views::TrustedLocationsModel(this);
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(views::TrustedLocationsModel::ValueColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(views::TrustedLocationsModel::LabelColumn, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_remove = buttons->addButton(tr("&Remove"), QDialogButtonBox::ActionRole);
    QPushButton* add = buttons->addButton(tr("&Add Folder..."), QDialogButtonBox::ActionRole);
    connect(m_remove, &QPushButton::clicked, this, &TrustedLocationsDialog::removeSelected);
    connect(add, &QPushButton::clicked, this, &TrustedLocationsDialog::addFolder);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TrustedLocationsDialog::updateRemove);
    connect(m_trust, &WorkspaceTrust::changed, this, &TrustedLocationsDialog::refresh);
    refresh();
    resize(900, 360);
}

void TrustedLocationsDialog::refresh() {
    m_model->setEntries(m_trust->entries());
    m_table->resizeColumnToContents(views::TrustedLocationsModel::KindColumn);
    m_table->resizeColumnToContents(views::TrustedLocationsModel::AddedColumn);
    updateRemove();
}

void TrustedLocationsDialog::updateRemove() {
    m_remove->setEnabled(m_table->selectionModel()->hasSelection());
}

void TrustedLocationsDialog::removeSelected() {
    std::vector<std::pair<core::TrustKind, std::string>> chosen;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        chosen.emplace_back(static_cast<core::TrustKind>(index.data(views::TrustedLocationsModel::KindRole).toInt()),
                            index.data(views::TrustedLocationsModel::ValueRole).toString().toStdString());
    }
    for (const auto& [kind, value] : chosen) {
        m_trust->revoke(kind, value);
    }
}

void TrustedLocationsDialog::addFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Trust Folder"));
    if (!folder.isEmpty()) {
        m_trust->trustFolder(folder);
    }
}

} // namespace kl::app

#include "gui/TrustedLocationsDialog.h"

#include "gui/WorkspaceTrust.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kl::app {

namespace {

enum Column { KindColumn, ValueColumn, LabelColumn, AddedColumn, ColumnCount };

QString kindText(core::TrustKind kind) {
    switch (kind) {
    case core::TrustKind::Content: return QObject::tr("Content");
    case core::TrustKind::Folder: return QObject::tr("Folder");
    case core::TrustKind::Author: return QObject::tr("Author");
    }
    return {};
}

} // namespace

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
    m_table = new QTableWidget(0, ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Kind"), tr("Trusted"), tr("Given for"), tr("Added")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(LabelColumn, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_remove = buttons->addButton(tr("&Remove"), QDialogButtonBox::ActionRole);
    QPushButton* add = buttons->addButton(tr("&Add Folder..."), QDialogButtonBox::ActionRole);
    connect(m_remove, &QPushButton::clicked, this, &TrustedLocationsDialog::removeSelected);
    connect(add, &QPushButton::clicked, this, &TrustedLocationsDialog::addFolder);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(!m_table->selectedItems().isEmpty()); });
    connect(m_trust, &WorkspaceTrust::changed, this, &TrustedLocationsDialog::refresh);
    refresh();
    resize(900, 360);
}

void TrustedLocationsDialog::refresh() {
    const auto& entries = m_trust->entries();
    m_table->setRowCount(static_cast<int>(entries.size()));
    for (int row = 0; row < static_cast<int>(entries.size()); ++row) {
        const core::TrustEntry& e = entries[static_cast<std::size_t>(row)];
        const QStringList cells{kindText(e.kind), QString::fromStdString(e.value), QString::fromStdString(e.label),
                                QString::fromStdString(e.added).left(19).replace(QLatin1Char('T'), QLatin1Char(' '))};
        for (int column = 0; column < ColumnCount; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            item->setToolTip(QStringLiteral("<p>%1</p>").arg(cells[column].toHtmlEscaped()));
            item->setData(Qt::UserRole, static_cast<int>(e.kind));
            item->setData(Qt::UserRole + 1, QString::fromStdString(e.value));
            m_table->setItem(row, column, item);
        }
    }
    m_table->resizeColumnToContents(KindColumn);
    m_table->resizeColumnToContents(AddedColumn);
    m_remove->setEnabled(!m_table->selectedItems().isEmpty());
}

void TrustedLocationsDialog::removeSelected() {
    std::vector<std::pair<core::TrustKind, std::string>> chosen;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const QTableWidgetItem* item = m_table->item(index.row(), KindColumn);
        chosen.emplace_back(static_cast<core::TrustKind>(item->data(Qt::UserRole).toInt()),
                            item->data(Qt::UserRole + 1).toString().toStdString());
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

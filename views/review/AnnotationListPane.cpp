#include "review/AnnotationListPane.h"

#include "review/AnnotationListModel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <set>

namespace kl::views {

namespace {

QComboBox* makeFilter(const QString& anyText) {
    auto* box = new QComboBox;
    box->addItem(anyText, QString());
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return box;
}

void setChoices(QComboBox* box, const std::set<QString>& values) {
    const QString current = box->currentData().toString();
    while (box->count() > 1) {
        box->removeItem(1);
    }
    for (const QString& v : values) {
        box->addItem(v, v);
    }
    const int index = box->findData(current);
    box->setCurrentIndex(index < 0 ? 0 : index);
}

} // namespace

AnnotationListPane::AnnotationListPane(QWidget* parent) : QWidget(parent) {
    m_model = new AnnotationListModel(this);
    m_filter = new AnnotationFilterModel(this);
    m_filter->setSourceModel(m_model);
    m_item = makeFilter(tr("any item"));
    m_severity = makeFilter(tr("any severity"));
    for (const char* s : {"blocking", "major", "minor", "nit", "praise"}) {
        m_severity->addItem(QString::fromLatin1(s), QString::fromLatin1(s));
    }
    m_status = makeFilter(tr("any status"));
    m_status->addItem(tr("open"), QStringLiteral("open"));
    m_status->addItem(tr("resolved"), QStringLiteral("resolved"));
    m_author = makeFilter(tr("any author"));

    m_table = new QTableView;
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // A narrow dock: the short columns take what they need, the text takes the rest and wraps (rows grow to fit),
    // and every cell's tooltip holds the whole annotation.
    QHeaderView* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(24);
    for (const int c : {AnnotationListModel::Number, AnnotationListModel::Severity, AnnotationListModel::Score,
                        AnnotationListModel::Status}) {
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    for (const int c : {AnnotationListModel::Anchor, AnnotationListModel::Item, AnnotationListModel::Author}) {
        header->setSectionResizeMode(c, QHeaderView::Interactive);
        header->resizeSection(c, m_table->fontMetrics().averageCharWidth() * 11);
    }
    header->setSectionResizeMode(AnnotationListModel::Text, QHeaderView::Stretch);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideRight);
    m_rowFit = new QTimer(this);
    m_rowFit->setSingleShot(true);
    m_rowFit->setInterval(40);
    connect(m_rowFit, &QTimer::timeout, this, [this] {
        const int textWidth = m_table->columnWidth(AnnotationListModel::Text);
        if (textWidth != m_fittedTextWidth) { // the text's column changed width, so its wrapped height did
            m_fittedTextWidth = textWidth;
            m_table->resizeRowsToContents();
        }
    });
    connect(m_filter, &QAbstractItemModel::modelReset, m_table, &QTableView::resizeRowsToContents);
    connect(m_filter, &QAbstractItemModel::layoutChanged, m_table, &QTableView::resizeRowsToContents);
    connect(m_filter, &QAbstractItemModel::rowsInserted, m_table, &QTableView::resizeRowsToContents);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, &AnnotationListPane::showHeaderMenu);

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_item, 0, 0);
    layout->addWidget(m_severity, 0, 1);
    layout->addWidget(m_status, 1, 0);
    layout->addWidget(m_author, 1, 1);
    layout->addWidget(m_table, 2, 0, 1, 2);

    connect(m_item, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setItemFilter(m_item->currentData().toString()); });
    connect(m_severity, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setSeverityFilter(m_severity->currentData().toString()); });
    connect(m_status, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setStatusFilter(m_status->currentData().toString()); });
    connect(m_author, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setAuthorFilter(m_author->currentData().toString()); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& index) { emit annotationActivated(idAt(index.row())); });
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { emit annotationActivated(idAt(index.row())); });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { emit editRequested(idAt(index.row())); });
    connect(m_table, &QWidget::customContextMenuRequested, this, &AnnotationListPane::showContextMenu);
}

void AnnotationListPane::setAnnotations(std::vector<core::Annotation> annotations) {
    const qint64 selected = m_table->currentIndex().isValid() ? idAt(m_table->currentIndex().row()) : 0;
    m_model->setAnnotations(std::move(annotations));
    refreshFilterChoices();
    m_table->resizeColumnsToContents();
    // Fitting to contents must not give a long anchor ("time 1000.00-9000.00 us") or item the text's room: they
    // keep at most their set width (the tooltip holds them whole).
    for (const int c : {AnnotationListModel::Anchor, AnnotationListModel::Item, AnnotationListModel::Author}) {
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), m_table->fontMetrics().averageCharWidth() * 11));
    }
    if (selected != 0) {
        selectId(selected);
    }
}

void AnnotationListPane::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitColumnsToWidth();
}

void AnnotationListPane::fitColumnsToWidth() {
    const bool narrow = width() < kNarrowWidth;
    for (const int c : {AnnotationListModel::Item, AnnotationListModel::Score, AnnotationListModel::Author,
                        AnnotationListModel::Status}) {
        const auto choice = m_columnChoice.find(c);
        m_table->setColumnHidden(c, choice != m_columnChoice.end() ? !choice->second : narrow);
    }
    m_rowFit->start();
}

void AnnotationListPane::setColumnChoice(int column, bool shown) {
    m_columnChoice[column] = shown;
    m_table->setColumnHidden(column, !shown);
    fitColumnsToWidth();
}

void AnnotationListPane::showHeaderMenu(const QPoint& pos) {
    QMenu menu(this);
    for (int c = 0; c < AnnotationListModel::ColumnCount; ++c) {
        if (c == AnnotationListModel::Text) {
            continue; // the annotation itself is never hidden
        }
        QAction* action = menu.addAction(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        action->setCheckable(true);
        action->setChecked(!m_table->isColumnHidden(c));
        connect(action, &QAction::toggled, this, [this, c](bool shown) { setColumnChoice(c, shown); });
    }
    menu.exec(m_table->horizontalHeader()->mapToGlobal(pos));
}

void AnnotationListPane::refreshFilterChoices() {
    std::set<QString> items;
    std::set<QString> authors;
    for (const auto& a : m_model->annotations()) {
        if (!a.rubricItem.empty()) {
            items.insert(QString::fromStdString(a.rubricItem));
        }
        authors.insert(QString::fromStdString(a.author));
    }
    setChoices(m_item, items);
    setChoices(m_author, authors);
}

qint64 AnnotationListPane::idAt(int proxyRow) const {
    return m_filter->index(proxyRow, 0).data(AnnotationListModel::AnnotationIdRole).toLongLong();
}

void AnnotationListPane::selectId(std::int64_t id) {
    const int sourceRow = m_model->rowOfId(id);
    const QModelIndex index = m_filter->mapFromSource(m_model->index(sourceRow, 0));
    if (index.isValid()) {
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index);
    }
}

std::int64_t AnnotationListPane::step(int direction) {
    const int rows = m_filter->rowCount();
    if (rows == 0) {
        return 0;
    }
    const int current = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : (direction > 0 ? -1 : rows);
    const int row = (current + direction + rows) % rows;
    const QModelIndex index = m_filter->index(row, 0);
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    const qint64 id = idAt(row);
    emit annotationActivated(id);
    return id;
}

std::int64_t AnnotationListPane::next() {
    return step(1);
}
std::int64_t AnnotationListPane::previous() {
    return step(-1);
}

void AnnotationListPane::showContextMenu(const QPoint& pos) {
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid()) {
        return;
    }
    const qint64 id = idAt(index.row());
    const bool resolved = index.data(AnnotationListModel::ResolvedRole).toBool();
    QMenu menu(this);
    menu.addAction(tr("Edit..."), this, [this, id] { emit editRequested(id); });
    menu.addAction(tr("Reply..."), this, [this, id] { emit replyRequested(id); });
    menu.addAction(resolved ? tr("Reopen") : tr("Resolve"), this, [this, id] { emit resolveToggled(id); });
    menu.addSeparator();
    menu.addAction(tr("Delete"), this, [this, id] { emit deleteRequested(id); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

} // namespace kl::views

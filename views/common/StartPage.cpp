#include "common/StartPage.h"

#include <QFileInfo>

#include <algorithm>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace kl::views {

namespace {

QWidget* column(const QString& heading, QListWidget* list) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    auto* label = new QLabel(QStringLiteral("<h3>%1</h3>").arg(heading.toHtmlEscaped()));
    layout->addWidget(label);
    layout->addWidget(list, 1);
    return box;
}

} // namespace

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 16, 24, 16);
    auto* title = new QLabel(tr("<h2>KernelLens</h2><p>Open a task folder (Ctrl+O), a kernel, or a review file "
                                "(Ctrl+Shift+O), or start from a bundled example. Each example pairs an NKI kernel "
                                "with the CUDA kernel it was migrated from.</p>"));
    title->setWordWrap(true);
    layout->addWidget(title);
    auto* columns = new QHBoxLayout;
    m_examples = new QListWidget;
    m_examples->setObjectName(QStringLiteral("startExamples"));
    m_examples->setWordWrap(true);
    m_examples->setSpacing(2);
    // By pixel, not by item: with a few tall items, per-item scrolling gave a handle that covered most of the
    // track and moved against the wheel's distance (the "inverted" scroll bar).
    m_examples->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_recent = new QListWidget;
    m_recent->setObjectName(QStringLiteral("startRecent"));
    m_recent->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    columns->addWidget(column(tr("Examples"), m_examples), 3);
    columns->addWidget(column(tr("Recent"), m_recent), 2);
    layout->addLayout(columns, 1);
    for (QListWidget* list : {m_examples, m_recent}) {
        connect(list, &QListWidget::itemActivated, this, &StartPage::activate);
    }
}

void StartPage::setExamples(const QList<Entry>& examples) {
    m_examples->clear();
    QList<Entry> sorted = examples;
    // By folder name, the order a review made from the examples folder queues them and reports list them.
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return QFileInfo(a.path).fileName() < QFileInfo(b.path).fileName();
    });
    for (const Entry& e : sorted) {
        auto* item = new QListWidgetItem;
        item->setData(Qt::UserRole, e.path);
        item->setData(Qt::AccessibleTextRole, e.title);
        item->setToolTip(e.path);
        // A rich-text label shows the title in bold over its description.
        auto* label = new QLabel(
            QStringLiteral("<b>%1</b><br><span>%2</span>").arg(e.title.toHtmlEscaped(), e.description.toHtmlEscaped()));
        label->setWordWrap(true);
        label->setContentsMargins(6, 4, 6, 4);
        label->setAttribute(Qt::WA_TransparentForMouseEvents);
        m_examples->addItem(item);
        m_examples->setItemWidget(item, label);
        // Room for the title and three lines of description; the owner keeps descriptions that short.
        item->setSizeHint(QSize(0, label->fontMetrics().lineSpacing() * 4 + 14));
    }
}

void StartPage::setRecent(const QStringList& paths) {
    m_recent->clear();
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(QFileInfo(path).fileName() + QStringLiteral("\n") + path);
        item->setData(Qt::UserRole, path);
        item->setFlags(QFileInfo::exists(path) ? item->flags() : item->flags() & ~Qt::ItemIsEnabled);
        m_recent->addItem(item);
    }
    if (paths.isEmpty()) {
        auto* item = new QListWidgetItem(tr("Nothing opened yet"));
        item->setFlags(Qt::NoItemFlags);
        m_recent->addItem(item);
    }
}

void StartPage::activate(QListWidgetItem* item) {
    const QString path = item->data(Qt::UserRole).toString();
    if (!path.isEmpty()) {
        emit openRequested(path);
    }
}

} // namespace kl::views

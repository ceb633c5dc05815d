#include "common/TrustPanel.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace kl::views {

namespace {

constexpr int kMaxButtonPathChars = 48;

QString elidedPath(const QString& path) {
    if (path.size() <= kMaxButtonPathChars) {
        return path;
    }
    return QStringLiteral("...") + path.right(kMaxButtonPathChars - 3);
}

/// Button text shows '&' as a mnemonic unless doubled.
QString buttonText(QString text) {
    return text.replace(QLatin1Char('&'), QStringLiteral("&&"));
}

/// Tooltips guess rich text from the content: make it rich on purpose and escape what came from files.
QString tooltip(const QString& text, const QString& name) {
    return QStringLiteral("<p>") + text.arg(name.toHtmlEscaped()) + QStringLiteral("</p>");
}

QLabel* valueLabel(const QString& text) {
    auto* label = new QLabel(text);
    label->setTextFormat(Qt::PlainText); // names come from someone else's files: never rich text
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return label;
}

} // namespace

TrustPanel::TrustPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("trustPanel"));
    auto* card = new QWidget;
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(24, 16, 24, 16);
    auto* top = new QHBoxLayout;
    // The icon is looked up when a prompt is first shown: at construction it cost every window's start about
    // 13 ms (the style asks the icon theme first), and most windows never show this panel.
    m_icon = new QLabel;
    m_icon->setFixedSize(32, 32);
    m_icon->setAlignment(Qt::AlignTop);
    top->addWidget(m_icon, 0, Qt::AlignTop);
    auto* texts = new QVBoxLayout;
    m_heading = new QLabel;
    m_heading->setTextFormat(Qt::PlainText);
    QFont font = m_heading->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    m_heading->setFont(font);
    m_explanation = new QLabel;
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setWordWrap(true);
    texts->addWidget(m_heading);
    texts->addWidget(m_explanation);
    top->addLayout(texts, 1);
    layout->addLayout(top);

    m_rows = new QFormLayout;
    m_rows->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_rows->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_rows->setContentsMargins(40, 8, 0, 8);
    layout->addLayout(m_rows);
    m_warning = new QLabel;
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setWordWrap(true);
    m_warning->setContentsMargins(40, 0, 0, 0);
    m_warning->setForegroundRole(QPalette::BrightText);
    layout->addWidget(m_warning);

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(40, 4, 0, 0);
    m_trust = new QPushButton(tr("Trust and Run"));
    m_trust->setObjectName(QStringLiteral("trustAndRun"));
    m_trust->setDefault(true);
    m_folder = new QPushButton;
    m_folder->setObjectName(QStringLiteral("trustFolder"));
    m_author = new QPushButton;
    m_author->setObjectName(QStringLiteral("trustAuthor"));
    auto* manage = new QPushButton(tr("Trusted Locations..."));
    manage->setFlat(true);
    for (QPushButton* b : {m_trust, m_folder, m_author}) {
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    buttons->addWidget(manage);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_trust, &QPushButton::clicked, this, &TrustPanel::trustContentRequested);
    connect(m_folder, &QPushButton::clicked, this, &TrustPanel::trustFolderRequested);
    connect(m_author, &QPushButton::clicked, this, &TrustPanel::trustAuthorRequested);
    connect(manage, &QPushButton::clicked, this, &TrustPanel::manageRequested);

    auto* scroll = new QScrollArea;
    scroll->setWidget(card);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

void TrustPanel::setPrompt(const TrustPrompt& prompt) {
    if (m_icon->pixmap().isNull()) {
        m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(32, 32));
    }
    m_heading->setText(prompt.heading);
    m_explanation->setText(prompt.explanation);
    while (m_rows->rowCount() > 0) {
        m_rows->removeRow(0);
    }
    for (const auto& [label, value] : prompt.rows) {
        auto* name = new QLabel(label + QLatin1Char(':'));
        name->setTextFormat(Qt::PlainText);
        m_rows->addRow(name, valueLabel(value));
    }
    m_shown = prompt.rows;
    m_warning->setText(prompt.warning);
    m_warning->setVisible(!prompt.warning.isEmpty());
    m_trust->setText(prompt.rememberable ? tr("Trust and Run") : tr("Run Without Remembering"));
    m_trust->setToolTip(prompt.rememberable
                            ? tr("Remember this exact content as trusted and run it. Any change asks again.")
                            : tr("Run it now and again until KernelLens closes, without remembering it."));
    m_folder->setVisible(!prompt.folder.isEmpty());
    m_folder->setText(buttonText(tr("Trust Folder %1").arg(elidedPath(prompt.folder))));
    m_folder->setToolTip(
        tooltip(tr("Trust everything in %1 and below it, now and later, whatever it holds."), prompt.folder));
    m_author->setVisible(!prompt.author.isEmpty());
    m_author->setText(buttonText(tr("Trust Reviews by \u201c%1\u201d").arg(prompt.author.left(40))));
    m_author->setToolTip(tooltip(tr("Run every review whose file names \u201c%1\u201d as its author. The name is "
                                    "written by whoever made the file and is not verified: trust it only for files "
                                    "that reach you from that person."),
                                 prompt.author));
}

QString TrustPanel::rowsText() const {
    QStringList lines;
    for (const auto& [label, value] : m_shown) {
        lines << label + QStringLiteral(": ") + value;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace kl::views

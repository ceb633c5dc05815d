#include "common/ReadOnlyBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace kl::views {

ReadOnlyBanner::ReadOnlyBanner(QWidget* parent)
    : QFrame(parent), m_text(new QLabel), m_saveCopy(new QPushButton(tr("Save an Editable Copy..."))) {
    setObjectName(QStringLiteral("readOnlyBanner"));
    setFrameShape(QFrame::StyledPanel);
    // The palette's tooltip colours are a warm, readable pair in both the light and the dark theme.
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    auto* icon = new QLabel;
    const int side = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(side, side));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_text->setForegroundRole(QPalette::ToolTipText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_saveCopy);
    connect(m_saveCopy, &QPushButton::clicked, this, &ReadOnlyBanner::saveCopyRequested);
    hide();
}

void ReadOnlyBanner::setReason(const QString& reason) {
    if (reason.isEmpty()) {
        m_text->clear();
        hide();
        return;
    }
    m_text->setText(tr("This review is read-only: %1. You can look at everything, but scores and annotations "
                       "cannot be saved here.")
                        .arg(reason));
    show();
}

QString ReadOnlyBanner::text() const {
    return m_text->text();
}

} // namespace kl::views

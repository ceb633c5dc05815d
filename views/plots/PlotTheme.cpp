#include "plots/PlotTheme.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QPalette>

namespace kl::views {

PlotTheme::PlotTheme(QCustomPlot* plot) : QObject(plot) {
    plot->installEventFilter(this);
}

PlotTheme* PlotTheme::follow(QCustomPlot* plot) {
    apply(plot, plot->palette());
    return new PlotTheme(plot);
}

void PlotTheme::apply(QCustomPlot* plot, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = palette.color(QPalette::Mid);
    QColor subGrid = grid;
    subGrid.setAlpha(90);
    plot->setBackground(palette.window());
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(base);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text, 0));
            axis->setTickPen(QPen(text, 0));
            axis->setSubTickPen(QPen(text, 0));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(subGrid, 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
        if (auto* legend = qobject_cast<QCPLegend*>(plot->plotLayout()->elementAt(i))) {
            legend->setBrush(Qt::NoBrush);
            legend->setBorderPen(Qt::NoPen);
            legend->setTextColor(text);
        }
    }
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (int i = 0; i < rect->insetLayout()->elementCount(); ++i) {
            if (auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i))) {
                QColor fill = base;
                fill.setAlpha(210);
                legend->setBrush(fill);
                legend->setBorderPen(QPen(grid));
                legend->setTextColor(text);
            }
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* label = qobject_cast<QCPItemText*>(plot->item(i))) {
            label->setColor(text);
        }
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotTheme::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        auto* plot = static_cast<QCustomPlot*>(watched);
        apply(plot, plot->palette());
    }
    return QObject::eventFilter(watched, event);
}

} // namespace kl::views

#pragma once

#include <QObject>

class QCustomPlot;
class QPalette;

namespace kl::views {

/// Keeps a QCustomPlot in the application's palette (QCustomPlot paints white with black axes whatever the
/// palette): background, axes, tick labels, grid, legends and text items take the palette's colours, now
/// and whenever the palette changes. One call per plot: `PlotTheme::follow(plot)`; the theme object is a child
/// of the plot. A plot rendered for a report gets the palette it is given, so reports stay light.
class PlotTheme : public QObject {
    Q_OBJECT
public:
    static PlotTheme* follow(QCustomPlot* plot);
    static void apply(QCustomPlot* plot, const QPalette& palette);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit PlotTheme(QCustomPlot* plot);
};

} // namespace kl::views

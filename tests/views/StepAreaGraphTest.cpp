// StepAreaGraph fills a step series one pixel column at a time (QCustomPlot's polygon fill is quadratic in the
// plot's width for busy series): it must cover what the polygon fill covers, and keep a peak narrower than a pixel.
#include "plots/StepAreaGraph.h"

#include <QtTest>

#include <qcustomplot.h>

namespace {

constexpr int kWidth = 400;
constexpr int kHeight = 200;
const QColor kFill(200, 30, 30);

/// A plot with no axes or margins showing `keys`/`values` as a filled step-left graph of the given kind.
template <class Graph> QImage render(const QVector<double>& keys, const QVector<double>& values, double keyEnd) {
    QCustomPlot plot;
    plot.resize(kWidth, kHeight);
    plot.setNotAntialiasedElements(QCP::aeAll);
    QCPAxisRect* rect = plot.axisRect();
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins(0, 0, 0, 0));
    for (QCPAxis* axis : rect->axes()) {
        axis->setVisible(false);
    }
    auto* graph = new Graph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(Qt::NoPen);
    graph->setBrush(kFill);
    graph->setData(keys, values, true);
    rect->axis(QCPAxis::atBottom)->setRange(0, keyEnd);
    rect->axis(QCPAxis::atLeft)->setRange(0, 100);
    return plot.toPixmap(kWidth, kHeight).toImage();
}

int filledPixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            n += image.pixelColor(x, y) == kFill ? 1 : 0;
        }
    }
    return n;
}

} // namespace

class StepAreaGraphTest : public QObject {
    Q_OBJECT
private slots:
    void coversWhatThePolygonFillCovers() {
        const QVector<double> keys{0, 1, 2.5, 4, 5, 7.25, 8, 10};
        const QVector<double> values{0, 50, 20, 80, 0, 100, 35, 35};
        const QImage polygon = render<QCPGraph>(keys, values, 10);
        const QImage columns = render<kl::views::StepAreaGraph>(keys, values, 10);
        const int filled = filledPixels(polygon);
        QVERIFY2(filled > kWidth * kHeight / 4, "the reference fill should cover a good part of the plot");
        int differing = 0;
        for (int y = 0; y < kHeight; ++y) {
            for (int x = 0; x < kWidth; ++x) {
                differing += (polygon.pixelColor(x, y) == kFill) != (columns.pixelColor(x, y) == kFill) ? 1 : 0;
            }
        }
        // At most one column of difference at each of the series' jumps, where the two round differently.
        QVERIFY2(differing <= static_cast<int>(keys.size()) * kHeight,
                 qPrintable(QStringLiteral("%1 of %2 filled pixels differ").arg(differing).arg(filled)));
        QCOMPARE(columns.pixelColor(kWidth * 7 / 40, kHeight - kHeight * 9 / 20),
                 kFill); // inside the 50 % step (keys 1-2.5)
        QVERIFY(columns.pixelColor(kWidth * 7 / 40, kHeight - kHeight * 11 / 20) != kFill); // above it
    }

    void aPeakNarrowerThanAPixelStillShows() {
        // One microsecond at 90 % in a second of zeros: far narrower than a pixel column.
        const QVector<double> keys{0, 0.5, 0.500001, 1};
        const QVector<double> values{0, 90, 0, 0};
        const QImage image = render<kl::views::StepAreaGraph>(keys, values, 1);
        const int peakRow = kHeight - kHeight * 85 / 100;
        int columnsAtPeak = 0;
        for (int x = 0; x < kWidth; ++x) {
            columnsAtPeak += image.pixelColor(x, peakRow) == kFill ? 1 : 0;
        }
        QCOMPARE(columnsAtPeak, 1);
        QCOMPARE(image.pixelColor(kWidth / 4, kHeight - 2) == kFill, false); // zero elsewhere: nothing filled
    }

    void aBusySeriesFillsEveryColumnToItsHighestStep() {
        // 100,000 steps alternating 10 % and 60 %: every column holds both, so every column reaches 60 %.
        QVector<double> keys;
        QVector<double> values;
        for (int i = 0; i < 100000; ++i) {
            keys.push_back(i);
            values.push_back(i % 2 == 0 ? 10 : 60);
        }
        const QImage image = render<kl::views::StepAreaGraph>(keys, values, 100000);
        const int row = kHeight - kHeight * 55 / 100;
        for (int x = 1; x < kWidth - 1; ++x) {
            QVERIFY2(image.pixelColor(x, row) == kFill, qPrintable(QStringLiteral("column %1 not filled").arg(x)));
            QVERIFY(image.pixelColor(x, kHeight - kHeight * 65 / 100) != kFill);
        }
    }
};

QTEST_MAIN(StepAreaGraphTest)
#include "StepAreaGraphTest.moc"

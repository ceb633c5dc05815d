#pragma once

#include "timeline/TimelineView.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

class QComboBox;

namespace kl::views {

/// The timeline's colour key, in a strip above the lanes (never over the data): a chooser for what colour
/// means (engine, operation, source line; the same setting as View > Colour by) and a swatch per colour in
/// use. For operations and lines it lists the busiest few, each with its share of busy time. While an
/// instruction is selected, the kinds of flow arrow drawn for it are explained at the strip's right end.
class TimelineLegend : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString label;
        QColor colour;
    };
    static constexpr int kMaxEntries = 8;

    explicit TimelineLegend(TimelineView* view, QWidget* parent = nullptr);

    /// Recomputes the entries (after a new run, a new colouring or a palette change).
    void refresh();
    [[nodiscard]] const QList<Entry>& entries() const { return m_entries; }
    /// The arrow kinds on screen for the selected instruction (empty without a selection).
    [[nodiscard]] const QList<Entry>& arrowEntries() const { return m_arrows; }
    [[nodiscard]] QComboBox* chooser() const { return m_chooser; }
    [[nodiscard]] QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void collectKeys(bool byOperation);
    /// Only the arrow key: a selection must not rescan the run (collectKeys is linear in instructions).
    void refreshArrows();
    int paintArrows(QPainter& painter, int cy); ///< right-aligned; returns where they begin

    TimelineView* m_view = nullptr;
    QComboBox* m_chooser = nullptr;
    QList<Entry> m_entries;
    QList<Entry> m_arrows;
    QString m_more; ///< "+ 12 more" when there are more keys than swatches
};

} // namespace kl::views

#pragma once

#include "rubric/Rubric.h"
#include "team/AgreementReport.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// Agreement per rubric item of a team review, then the overall row: the item (its rubric title), Krippendorff's
/// alpha, Cohen's or Fleiss' kappa and the share of agreeing pairs, each figure's notes in its tooltip.
/// LevelRole gives the item's level of measurement ("nominal", "ordinal", "interval").
class AgreementItemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Item, Alpha, Kappa, Agree, ColumnCount };
    enum Role { LevelRole = Qt::UserRole + 1 };

    explicit AgreementItemsModel(QObject* parent = nullptr);

    /// `rubric` (may be null) names the items; it is read here only.
    void setReport(const core::team::AgreementReport& report, const core::Rubric* rubric);
    void clear();

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// "0.812", or "-" when the figure could not be computed.
    [[nodiscard]] static QString figureText(const core::team::Figure& f);

private:
    struct Row {
        core::team::ItemAgreement agreement;
        QString title;
    };
    [[nodiscard]] QString tip(const Row& row, int column) const;

    std::vector<Row> m_rows;
};

} // namespace kl::views

#pragma once

#include <QAbstractListModel>
#include <QColor>
#include <QSet>
#include <QStringList>

namespace kl::views {

/// The reviewers of a team review for the timeline's reviewer lens: one row per reviewer with a colour swatch
/// (AgreementPane::reviewerColour of its position) and a check box the user unticks to hide that reviewer's
/// annotations. The ticks are the user's: a new list of the same reviewers (after an adjudication) keeps them.
class ReviewerLensModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit ReviewerLensModel(QObject* parent = nullptr);

    /// New reviewers; those hidden before stay hidden (a first list shows everyone).
    void setReviewers(const QStringList& names);
    void clear();
    [[nodiscard]] const QStringList& reviewers() const { return m_names; }
    [[nodiscard]] QSet<QString> hidden() const { return m_hidden; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    /// A reviewer was ticked or unticked by the user.
    void visibilityChanged();

private:
    QStringList m_names;
    QSet<QString> m_hidden;
};

} // namespace kl::views

#pragma once

#include "trust/TrustStore.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// The trust decisions the user made (File > Trusted Locations) as a table: kind, what is trusted, what it was
/// given for and when. KindRole and ValueRole name an entry the way TrustStore::revoke takes it. The list is
/// the user's own and grows with every "Trust" click, so it is a model the dialog's table view shows.
class TrustedLocationsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, ValueColumn, LabelColumn, AddedColumn, ColumnCount };
    enum Role { KindRole = Qt::UserRole + 1, ValueRole };

    explicit TrustedLocationsModel(QObject* parent = nullptr);

    void setEntries(std::vector<core::TrustEntry> entries);
    [[nodiscard]] const std::vector<core::TrustEntry>& entries() const { return m_entries; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    [[nodiscard]] static QString kindText(core::TrustKind kind);

private:
    [[nodiscard]] QString text(const core::TrustEntry& entry, int column) const;

    std::vector<core::TrustEntry> m_entries;
};

} // namespace kl::views

#pragma once

#include "hw/HardwareProfile.h"
#include "result/SimResult.h"
#include "whatif/WhatIfSettings.h"

#include <QWidget>

#include <memory>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace kl::views {

class WhatIfModel;

/// The what-if dock: a spin box for each hardware-profile field a learner may change (core::whatIfFields),
/// each showing the base profile's value, and a table (WhatIfModel) of total time, per-engine active %, exposed
/// DMA and DMA active against the base run with deltas.
///
/// It never simulates: a change (after a short pause, so dragging a value does not queue runs) emits
/// `overridesChanged`; the owner re-simulates (core::simulateWhatIf on a worker) and calls showResult().
/// "Save as profile..." emits `saveRequested` with the current overrides.
class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    /// The base: its profile (the values the spin boxes start from) and its run (the "base" column).
    void setBase(const sim::HardwareProfile& profile, std::shared_ptr<const sim::SimResult> run, const QString& label);
    [[nodiscard]] core::ProfileOverrides overrides() const;
    /// Sets the spin boxes (fields not named go back to the base) and emits overridesChanged at once.
    void setOverrides(const core::ProfileOverrides& overrides);

    void showResult(std::shared_ptr<const sim::SimResult> result, double milliseconds);
    void showBusy();
    void showError(const QString& message);

    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] WhatIfModel* model() const { return m_model; }
    /// The status line as the user reads it (rich text rendered to plain text).
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QDoubleSpinBox* spinBox(const QString& key) const;

signals:
    void overridesChanged(const kl::core::ProfileOverrides& overrides);
    void saveRequested(const kl::core::ProfileOverrides& overrides);

private:
    void fieldEdited();

    struct Field {
        const core::WhatIfField* spec;
        QDoubleSpinBox* box;
        QLabel* base;
    };
    std::vector<Field> m_fields;
    sim::HardwareProfile m_profile;
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    WhatIfModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_save = nullptr;
    QTimer* m_debounce = nullptr;
    bool m_loading = false;
};

} // namespace kl::views

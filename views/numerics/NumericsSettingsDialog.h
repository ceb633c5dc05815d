#pragma once

#include "trace/NumericsOptions.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace kl::views {

/// Run > Numerics...: what to run the kernel on (inputs by distribution or from a .npy/.npz file, a seed) and
/// what to compare it with (reference, CUDA accumulation policy, tolerance standard, rtol/atol). Every field left
/// blank keeps the task's own setting. options() is the result; a malformed rtol/atol keeps OK disabled.
class NumericsSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit NumericsSettingsDialog(QWidget* parent = nullptr);

    void setOptions(const core::NumericsOptions& options);
    [[nodiscard]] core::NumericsOptions options() const;

private:
    void validate();

    QComboBox* m_inputs = nullptr;
    QSpinBox* m_seed = nullptr;
    QLineEdit* m_reference = nullptr;
    QComboBox* m_cuda = nullptr;
    QLineEdit* m_tolerance = nullptr;
    QLineEdit* m_rtol = nullptr;
    QLineEdit* m_atol = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace kl::views

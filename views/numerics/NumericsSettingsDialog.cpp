#include "numerics/NumericsSettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <limits>

namespace kl::views {

namespace {

std::optional<double> tolerance(const QLineEdit* edit, bool* ok) {
    const QString text = edit->text().trimmed();
    *ok = true;
    if (text.isEmpty()) {
        return std::nullopt;
    }
    const double v = text.toDouble(ok);
    *ok = *ok && v >= 0 && v <= 1e6;
    return *ok ? std::optional<double>(v) : std::nullopt;
}

} // namespace

NumericsSettingsDialog::NumericsSettingsDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Run on Values (Numerics)"));
    m_inputs = new QComboBox;
    m_inputs->setEditable(true);
    m_inputs->addItems({QString(), QStringLiteral("normal"), QStringLiteral("uniform"), QStringLiteral("bf16-stress"),
                        QStringLiteral("fp8-stress"), QStringLiteral("outliers")});
    m_inputs->setToolTip(tr("Blank: the task's inputs (else normal). Or a .npy/.npz file, one array per argument."));
    auto* browse = new QPushButton(tr("File..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Input arrays"), {}, tr("NumPy arrays (*.npy *.npz)"));
        if (!file.isEmpty()) {
            m_inputs->setEditText(file);
        }
    });
    auto* inputsRow = new QHBoxLayout;
    inputsRow->addWidget(m_inputs, 1);
    inputsRow->addWidget(browse);
    m_seed = new QSpinBox;
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_reference = new QLineEdit;
    m_reference->setPlaceholderText(tr("the task's (reference.py:func)"));
    m_cuda = new QComboBox;
    m_cuda->setEditable(true);
    m_cuda->addItems({QString(), QStringLiteral("fp32-k-order"), QStringLiteral("tensor-core-bf16:16"),
                      QStringLiteral("split-k:4"), QStringLiteral("fp16-accumulate"), QStringLiteral("none")});
    m_cuda->setToolTip(tr("How the CUDA kernel accumulates. Blank: the task's cuda_numerics."));
    m_tolerance = new QLineEdit;
    m_tolerance->setPlaceholderText(tr("the task's, else default"));
    m_rtol = new QLineEdit;
    m_rtol->setPlaceholderText(tr("the standard's"));
    m_atol = new QLineEdit;
    m_atol->setPlaceholderText(tr("the standard's"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Inputs:"), inputsRow);
    form->addRow(tr("&Seed:"), m_seed);
    form->addRow(tr("&Reference:"), m_reference);
    form->addRow(tr("&CUDA numerics:"), m_cuda);
    form->addRow(tr("&Tolerance standard:"), m_tolerance);
    form->addRow(tr("rto&l:"), m_rtol);
    form->addRow(tr("&atol:"), m_atol);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_rtol, &QLineEdit::textChanged, this, &NumericsSettingsDialog::validate);
    connect(m_atol, &QLineEdit::textChanged, this, &NumericsSettingsDialog::validate);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void NumericsSettingsDialog::setOptions(const core::NumericsOptions& o) {
    m_inputs->setEditText(QString::fromStdString(o.inputs));
    m_seed->setValue(static_cast<int>(o.seed.value_or(0)));
    m_reference->setText(QString::fromStdString(o.reference));
    m_cuda->setEditText(QString::fromStdString(o.cudaNumerics));
    m_tolerance->setText(QString::fromStdString(o.tolerance));
    m_rtol->setText(o.rtol ? QString::number(*o.rtol) : QString());
    m_atol->setText(o.atol ? QString::number(*o.atol) : QString());
}

core::NumericsOptions NumericsSettingsDialog::options() const {
    core::NumericsOptions o;
    o.enabled = true;
    o.inputs = m_inputs->currentText().trimmed().toStdString();
    o.seed = m_seed->value();
    o.reference = m_reference->text().trimmed().toStdString();
    o.cudaNumerics = m_cuda->currentText().trimmed().toStdString();
    o.tolerance = m_tolerance->text().trimmed().toStdString();
    bool ok = true;
    o.rtol = tolerance(m_rtol, &ok);
    o.atol = tolerance(m_atol, &ok);
    return o;
}

void NumericsSettingsDialog::validate() {
    bool rtolOk = true;
    bool atolOk = true;
    (void)tolerance(m_rtol, &rtolOk);
    (void)tolerance(m_atol, &atolOk);
    m_ok->setEnabled(rtolOk && atolOk);
}

} // namespace kl::views

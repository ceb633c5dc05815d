#include "whatif/WhatIfPanel.h"

#include "whatif/WhatIfModel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTextDocument>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kl::views {

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("whatIfPanel"));
    m_title = new QLabel(tr("What if the hardware were different? Run a kernel first."));
    m_title->setWordWrap(true);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const core::WhatIfField& spec : core::whatIfFields()) {
        auto* box = new QDoubleSpinBox;
        box->setObjectName(QString::fromLatin1(spec.key));
        box->setRange(spec.minimum, spec.maximum);
        box->setDecimals(spec.integral ? 0 : 2);
        box->setSuffix(QStringLiteral(" ") + QString::fromLatin1(spec.unit));
        box->setKeyboardTracking(false);
        box->setToolTip(QString::fromLatin1(spec.key));
        auto* base = new QLabel;
        base->setStyleSheet(QStringLiteral("color: gray;"));
        auto* row = new QHBoxLayout;
        row->addWidget(box, 1);
        row->addWidget(base);
        form->addRow(tr(spec.label), row);
        m_fields.push_back({&spec, box, base});
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { fieldEdited(); });
    }
    m_reset = new QPushButton(tr("Reset to base"));
    m_save = new QPushButton(tr("Save as profile..."));
    m_save->setEnabled(false);
    connect(m_reset, &QPushButton::clicked, this, [this] { setOverrides({}); });
    connect(m_save, &QPushButton::clicked, this, [this] { emit saveRequested(overrides()); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_reset);
    buttons->addWidget(m_save);
    buttons->addStretch(1);

    m_model = new WhatIfModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("whatIfTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(WhatIfModel::Figure, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    // Always rich text, every value escaped: Qt's guess would show "&gt;" literally in a line without tags.
    m_status->setTextFormat(Qt::RichText);

    auto* fields = new QWidget;
    fields->setLayout(form);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(fields);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, [this] { emit overridesChanged(overrides()); });
    setEnabled(false);
}

QDoubleSpinBox* WhatIfPanel::spinBox(const QString& key) const {
    for (const Field& f : m_fields) {
        if (QString::fromLatin1(f.spec->key) == key) {
            return f.box;
        }
    }
    return nullptr;
}

void WhatIfPanel::setBase(const sim::HardwareProfile& profile, std::shared_ptr<const sim::SimResult> run,
                          const QString& label) {
    m_profile = profile;
    m_loading = true;
    for (const Field& f : m_fields) {
        const double v = core::fieldValue(profile, *f.spec);
        f.box->setValue(v);
        f.base->setText(tr("base %1").arg(v, 0, 'g', 6));
        QFont font = f.box->font();
        font.setBold(false);
        f.box->setFont(font);
    }
    m_loading = false;
    m_title->setText(tr("<b>What if</b> %1 ran on different hardware? Change a value: the kernel is "
                        "re-simulated from its traced IR, no re-tracing.")
                         .arg(label.toHtmlEscaped()));
    m_status->setText(tr("Base profile: %1").arg(QString::fromStdString(profile.name).toHtmlEscaped()));
    m_save->setEnabled(false);
    setEnabled(true);
    m_model->setBase(std::move(run));
}

core::ProfileOverrides WhatIfPanel::overrides() const {
    core::ProfileOverrides out;
    for (const Field& f : m_fields) {
        const double base = core::fieldValue(m_profile, *f.spec);
        if (std::abs(f.box->value() - base) > 1e-9 * std::max(1.0, std::abs(base))) {
            out[f.spec->key] = f.box->value();
        }
    }
    return out;
}

void WhatIfPanel::setOverrides(const core::ProfileOverrides& overrides) {
    m_loading = true;
    for (const Field& f : m_fields) {
        const auto it = overrides.find(f.spec->key);
        f.box->setValue(it != overrides.end() ? it->second : core::fieldValue(m_profile, *f.spec));
    }
    m_loading = false;
    fieldEdited();
    m_debounce->stop();
    emit overridesChanged(this->overrides());
}

void WhatIfPanel::fieldEdited() {
    if (m_loading) {
        return;
    }
    const auto current = overrides();
    for (const Field& f : m_fields) {
        QFont font = f.box->font();
        font.setBold(current.contains(f.spec->key));
        f.box->setFont(font);
    }
    m_save->setEnabled(!current.empty());
    if (current.empty()) {
        m_model->setWhatIf(nullptr);
        m_status->setText(tr("Base profile: %1").arg(QString::fromStdString(m_profile.name).toHtmlEscaped()));
    }
    m_debounce->start();
}

QString WhatIfPanel::statusText() const {
    QTextDocument doc;
    doc.setHtml(m_status->text());
    return doc.toPlainText();
}

void WhatIfPanel::showBusy() {
    m_status->setText(tr("Re-simulating with the changed profile..."));
}

void WhatIfPanel::showError(const QString& message) {
    m_status->setText(tr("<span style='color:#b02424'>%1</span>").arg(message.toHtmlEscaped()));
}

void WhatIfPanel::showResult(std::shared_ptr<const sim::SimResult> result, double milliseconds) {
    m_status->setText(
        tr("Re-simulated in %1 ms: %2")
            .arg(milliseconds, 0, 'f', 0)
            .arg(QString::fromStdString(core::describeOverrides(m_profile, overrides())).toHtmlEscaped()));
    m_model->setWhatIf(std::move(result));
}

} // namespace kl::views

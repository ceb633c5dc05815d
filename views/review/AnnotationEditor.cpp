#include "review/AnnotationEditor.h"

#include "common/QtText.h"

#include "review/AnnotationListModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>

namespace kl::views {

namespace {
constexpr core::Severity kSeverities[] = {core::Severity::Blocking, core::Severity::Major, core::Severity::Minor,
                                          core::Severity::Nit, core::Severity::Praise};
} // namespace

AnnotationEditor::AnnotationEditor(const core::Rubric& rubric, core::Annotation annotation, QWidget* parent)
    : QDialog(parent), m_rubric(rubric), m_annotation(std::move(annotation)) {
    setWindowTitle(m_annotation.id == 0 ? tr("New Annotation") : tr("Edit Annotation"));
    m_item = new QComboBox;
    m_item->addItem(tr("(no rubric item)"), QString());
    for (const auto& area : rubric.areas) {
        for (const auto& item : area.items) {
            m_item->addItem(QStringLiteral("%1: %2").arg(toQString(area.title), toQString(item.title)),
                            toQString(item.id));
        }
    }
    m_guidance = new QLabel;
    m_guidance->setWordWrap(true);
    m_guidance->setForegroundRole(QPalette::PlaceholderText);
    m_severity = new QComboBox;
    for (core::Severity s : kSeverities) {
        m_severity->addItem(toQString(std::string(core::toString(s))), static_cast<int>(s));
    }
    m_score = new QSpinBox;
    m_score->setSpecialValueText(tr("no score"));
    m_text = new QPlainTextEdit;
    m_text->setPlaceholderText(tr("What you observed, why it matters, and what the author should change."));
    m_text->setTabChangesFocus(true);
    m_resolved = new QCheckBox(tr("Resolved"));
    m_resolved->setVisible(m_annotation.id != 0);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Anchor"), new QLabel(AnnotationListModel::anchorText(m_annotation.anchor)));
    form->addRow(tr("Rubric item"), m_item);
    form->addRow(QString(), m_guidance);
    form->addRow(tr("Severity"), m_severity);
    form->addRow(tr("Score"), m_score);
    form->addRow(tr("Text"), m_text);
    form->addRow(QString(), m_resolved);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Save)->setToolTip(tr("Save (Ctrl+Enter)"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &AnnotationEditor::trySave);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (const auto& key : {QStringLiteral("Ctrl+Return"), QStringLiteral("Ctrl+Enter")}) {
        connect(new QShortcut(QKeySequence(key), this), &QShortcut::activated, this, &AnnotationEditor::trySave);
    }
    connect(m_item, &QComboBox::currentIndexChanged, this, &AnnotationEditor::itemChanged);

    m_item->setCurrentIndex(std::max(0, m_item->findData(toQString(m_annotation.rubricItem))));
    m_severity->setCurrentIndex(m_severity->findData(static_cast<int>(m_annotation.severity)));
    itemChanged();
    if (m_annotation.score) {
        m_score->setValue(*m_annotation.score);
    }
    m_text->setPlainText(toQString(m_annotation.text));
    m_resolved->setChecked(m_annotation.resolved);
    m_text->setFocus();
    resize(520, 420);
}

void AnnotationEditor::itemChanged() {
    const core::RubricItem* item = m_rubric.findItem(m_item->currentData().toString().toStdString());
    m_guidance->setText(item ? toQString(item->guidance) : tr("Not tied to a rubric item: no score."));
    // The spin box's minimum (one below the scale) stands for "no score".
    const int low = item ? item->scale.minValue() : 0;
    const int high = item ? item->scale.maxValue() : 0;
    m_score->setRange(low - 1, high);
    m_score->setEnabled(item != nullptr);
    if (item) {
        QStringList meanings;
        for (int v = low; v <= high; ++v) {
            meanings << toQString(item->scale.describe(v));
        }
        m_score->setToolTip(meanings.join(QLatin1Char('\n')));
    }
}

core::Annotation AnnotationEditor::annotation() const {
    core::Annotation a = m_annotation;
    a.rubricItem = m_item->currentData().toString().toStdString();
    a.severity = static_cast<core::Severity>(m_severity->currentData().toInt());
    a.score =
        m_score->isEnabled() && m_score->value() > m_score->minimum() ? std::optional(m_score->value()) : std::nullopt;
    a.text = m_text->toPlainText().toStdString();
    a.resolved = m_resolved->isChecked();
    return a;
}

void AnnotationEditor::trySave() {
    if (m_text->toPlainText().trimmed().isEmpty()) {
        QMessageBox::information(this, windowTitle(), tr("Write what you observed before saving."));
        return;
    }
    accept();
}

} // namespace kl::views

#pragma once

#include "review/ReviewTypes.h"
#include "rubric/Rubric.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace kl::views {

/// Writes or edits one annotation: rubric item (with its guidance shown), severity, optional score on the
/// item's scale, text, and for an existing one its resolved state. Ctrl+Enter saves, Esc cancels.
class AnnotationEditor : public QDialog {
    Q_OBJECT
public:
    AnnotationEditor(const core::Rubric& rubric, core::Annotation annotation, QWidget* parent = nullptr);

    [[nodiscard]] core::Annotation annotation() const;
    [[nodiscard]] QPlainTextEdit* textEdit() const { return m_text; }
    [[nodiscard]] QComboBox* itemBox() const { return m_item; }
    [[nodiscard]] QComboBox* severityBox() const { return m_severity; }
    [[nodiscard]] QSpinBox* scoreBox() const { return m_score; }

private:
    void itemChanged();
    void trySave();

    const core::Rubric& m_rubric;
    core::Annotation m_annotation;
    QComboBox* m_item = nullptr;
    QLabel* m_guidance = nullptr;
    QComboBox* m_severity = nullptr;
    QSpinBox* m_score = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QCheckBox* m_resolved = nullptr;
};

} // namespace kl::views

#include "lesson/LessonPanel.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kl::views {

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonPanel"));
    setFocusPolicy(Qt::StrongFocus);
    m_chooser = new QComboBox;
    m_chooser->setObjectName(QStringLiteral("lessonChooser"));
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(QStringLiteral("color: gray;")); // palette(mid) vanished on the dark theme
    m_steps = new QListWidget;
    m_steps->setObjectName(QStringLiteral("lessonSteps"));
    m_text = new QTextBrowser;
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setOpenExternalLinks(false);
    m_text->document()->setDefaultStyleSheet(QStringLiteral(
        "code { background: rgba(127, 127, 127, 50); } p { margin-bottom: 6px; } h3 { margin-top: 0; }"));
    m_previous = new QPushButton(tr("< Previous"));
    m_next = new QPushButton(tr("Next >"));
    m_previous->setToolTip(tr("Previous step (Page Up, Alt+Left)"));
    m_next->setToolTip(tr("Next step (Page Down, Alt+Right)"));
    m_position = new QLabel;
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: gray;"));
    m_again = new QPushButton(tr("Show this step again"));
    m_again->setObjectName(QStringLiteral("lessonShowAgain"));
    m_again->hide();
    connect(m_again, &QPushButton::clicked, this, &LessonPanel::showAgain);

    auto* nav = new QHBoxLayout;
    nav->addWidget(m_previous);
    nav->addStretch(1);
    nav->addWidget(m_position);
    nav->addStretch(1);
    nav->addWidget(m_next);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_steps);
    split->addWidget(m_text);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_chooser);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addLayout(nav);
    layout->addWidget(m_status);
    layout->addWidget(m_again);

    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updating) {
            selectLesson(index);
        }
    });
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_updating && row >= 0) {
            goToStep(row);
        }
    });
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previous);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::next);
    auto addKey = [this](const QList<QKeySequence>& keys, void (LessonPanel::*slot)()) {
        auto* action = new QAction(this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
    };
    addKey({QKeySequence(Qt::ALT | Qt::Key_Right), QKeySequence(Qt::Key_PageDown)}, &LessonPanel::next);
    addKey({QKeySequence(Qt::ALT | Qt::Key_Left), QKeySequence(Qt::Key_PageUp)}, &LessonPanel::previous);
    render();
}

void LessonPanel::keyPressEvent(QKeyEvent* event) {
    // Reached when the shortcut map did not take the key (e.g. the panel itself has focus in a test).
    if (event->key() == Qt::Key_PageDown || (event->key() == Qt::Key_Right && event->modifiers() & Qt::AltModifier)) {
        next();
    } else if (event->key() == Qt::Key_PageUp ||
               (event->key() == Qt::Key_Left && event->modifiers() & Qt::AltModifier)) {
        previous();
    } else {
        QWidget::keyPressEvent(event);
    }
}

void LessonPanel::setLessons(std::vector<core::Lesson> lessons) {
    m_lessons = std::move(lessons);
    m_updating = true;
    m_chooser->clear();
    for (const core::Lesson& lesson : m_lessons) {
        m_chooser->addItem(QString::fromStdString(lesson.title));
    }
    m_updating = false;
    m_lesson = -1;
    m_step = -1;
    if (!m_lessons.empty()) {
        selectLesson(0);
    } else {
        render();
    }
}

void LessonPanel::setLessonProblems(const QStringList& problems) {
    if (!problems.isEmpty()) {
        setStatus(tr("Some lessons could not be read:\n%1").arg(problems.join(QLatin1Char('\n'))));
    }
}

const core::LessonStep* LessonPanel::step() const {
    if (m_lesson < 0 || m_step < 0) {
        return nullptr;
    }
    return &m_lessons[static_cast<std::size_t>(m_lesson)].steps[static_cast<std::size_t>(m_step)];
}

void LessonPanel::selectLesson(int index) {
    if (index < 0 || index >= static_cast<int>(m_lessons.size())) {
        return;
    }
    m_lesson = index;
    m_step = -1;
    const core::Lesson& lesson = m_lessons[static_cast<std::size_t>(index)];
    m_updating = true;
    m_chooser->setCurrentIndex(index);
    m_steps->clear();
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        m_steps->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(lesson.steps[i].title)));
    }
    m_updating = false;
    m_summary->setText(tr("%1<br><i>CUDA counterpart:</i> %2")
                           .arg(QString::fromStdString(lesson.summary).toHtmlEscaped(),
                                QString::fromStdString(lesson.cudaCounterpart).toHtmlEscaped()));
    goToStep(0);
}

void LessonPanel::goToStep(int index) {
    if (m_lesson < 0) {
        return;
    }
    const auto& steps = m_lessons[static_cast<std::size_t>(m_lesson)].steps;
    if (index < 0 || index >= static_cast<int>(steps.size()) || index == m_step) {
        return;
    }
    m_step = index;
    m_updating = true;
    m_steps->setCurrentRow(index);
    m_updating = false;
    enterStep();
}

void LessonPanel::showAgain() {
    if (step()) {
        enterStep();
    }
}

void LessonPanel::leaveScreen(const QString& why) {
    if (!step() || !m_onScreen) {
        return;
    }
    m_onScreen = false;
    m_numbers.clear();
    render();
    setStatus(why);
    m_again->show();
}

void LessonPanel::enterStep() {
    m_onScreen = true;
    m_again->hide();
    m_numbers.clear();
    render();
    const core::LessonStep& s = *step();
    emit stepChanged(m_lesson, m_step);
    emit taskRequested(QString::fromStdString(s.task), QString::fromStdString(s.hardware));
    if (s.compare) {
        emit comparisonRequested(QString::fromStdString(s.compare->task), QString::fromStdString(s.compare->hardware));
    }
    if (!s.whatIf.empty()) {
        emit whatIfRequested(s.whatIf);
    }
    if (s.timeRange) {
        emit timeRangeRequested(s.timeRange->from, s.timeRange->to,
                                s.timeRange->unit == core::LessonTimeRange::Unit::Fraction);
    }
    if (!s.nkiLines.empty() || !s.cudaLines.empty()) {
        emit sourceLinesRequested(s.nkiLines.first, s.nkiLines.last, s.cudaLines.first, s.cudaLines.last);
    }
    emit annotationRequested(QString::fromStdString(s.annotation));
}

void LessonPanel::next() {
    if (m_lesson >= 0) {
        goToStep(m_step + 1);
    }
}

void LessonPanel::previous() {
    if (m_lesson >= 0) {
        goToStep(m_step - 1);
    }
}

void LessonPanel::setNumbers(const core::LessonNumbers& numbers) {
    m_numbers = numbers;
    render();
}

void LessonPanel::setStatus(const QString& text) {
    m_status->setText(text);
}

void LessonPanel::render() {
    const core::LessonStep* s = step();
    const int count = m_lesson >= 0 ? static_cast<int>(m_lessons[static_cast<std::size_t>(m_lesson)].steps.size()) : 0;
    m_previous->setEnabled(s && m_step > 0);
    m_next->setEnabled(s && m_step + 1 < count);
    m_position->setText(s ? tr("Step %1 of %2").arg(m_step + 1).arg(count) : QString());
    if (!s) {
        m_text->setHtml(tr("<p>No lesson loaded. Lessons live in <code>resources/lessons/</code>.</p>"));
        return;
    }
    QString html = QStringLiteral("<h3>%1</h3>").arg(QString::fromStdString(s->title).toHtmlEscaped());
    html += QString::fromStdString(core::renderLessonHtml(s->text, m_numbers));
    QStringList where;
    where << tr("<b>%1</b> on %2").arg(QString::fromStdString(s->task), QString::fromStdString(s->hardware));
    if (s->compare) {
        where << tr("compared with <b>%1</b> on %2")
                     .arg(QString::fromStdString(s->compare->task), QString::fromStdString(s->compare->hardware));
    }
    if (!s->whatIf.empty()) {
        QStringList changes;
        for (const auto& [key, value] : s->whatIf) {
            changes << QStringLiteral("%1 = %2").arg(QString::fromStdString(key)).arg(value, 0, 'g', 6);
        }
        where << tr("what-if: %1").arg(changes.join(QStringLiteral(", ")));
    }
    html += QStringLiteral("<p style='color:gray'>%1</p>").arg(where.join(QStringLiteral(" · ")));
    m_text->setHtml(html);
}

} // namespace kl::views

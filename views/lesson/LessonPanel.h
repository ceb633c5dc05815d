#pragma once

#include "lesson/Lesson.h"
#include "lesson/LessonText.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace kl::views {

/// Tour mode: pick a lesson, read its steps one at a time, move with Next / Previous (buttons, Page Down /
/// Page Up, Alt+Right / Alt+Left). The panel only shows text: entering a step asks the owner, through
/// signals, to move the views to the step's anchors (a task run, a time range, source lines, a note, a
/// what-if setting or a comparison). The owner feeds back the live numbers of the step's runs with
/// setNumbers(), and the text's placeholders ({a.total_us}, {speedup}, ...) fill in.
class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    void setLessons(std::vector<core::Lesson> lessons);
    void setLessonProblems(const QStringList& problems);
    [[nodiscard]] const std::vector<core::Lesson>& lessons() const { return m_lessons; }
    [[nodiscard]] int currentLesson() const { return m_lesson; }
    [[nodiscard]] int currentStep() const { return m_step; }
    [[nodiscard]] const core::LessonStep* step() const;

    void selectLesson(int index);
    void goToStep(int index);
    void next();
    void previous();

    /// Live numbers for the current step (A = its run, B = its comparison or what-if run).
    void setNumbers(const core::LessonNumbers& numbers);
    void setStatus(const QString& text);
    /// The views no longer show the current step (the user chose another comparison): its live numbers are
    /// cleared, the status says `why`, and "Show this step again" re-enters it.
    void leaveScreen(const QString& why);
    [[nodiscard]] bool isOnScreen() const { return m_onScreen; }
    /// Re-enters the current step (its anchors are requested again).
    void showAgain();

    [[nodiscard]] QListWidget* stepList() const { return m_steps; }
    [[nodiscard]] QTextBrowser* textView() const { return m_text; }
    [[nodiscard]] QPushButton* nextButton() const { return m_next; }
    [[nodiscard]] QPushButton* previousButton() const { return m_previous; }
    [[nodiscard]] QPushButton* againButton() const { return m_again; }

signals:
    /// Every step entered: first this, then the anchor signals that apply to the step.
    void stepChanged(int lesson, int step);
    void taskRequested(const QString& task, const QString& hardware);
    void comparisonRequested(const QString& task, const QString& hardware);
    void whatIfRequested(const kl::core::ProfileOverrides& overrides);
    /// [from, to] as fractions of the run's total time (fraction) or in microseconds.
    void timeRangeRequested(double from, double to, bool fraction);
    void sourceLinesRequested(int nkiFirst, int nkiLast, int cudaFirst, int cudaLast);
    void annotationRequested(const QString& text);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void render();
    void enterStep();

    std::vector<core::Lesson> m_lessons;
    core::LessonNumbers m_numbers;
    int m_lesson = -1;
    int m_step = -1;
    QComboBox* m_chooser = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_steps = nullptr;
    QTextBrowser* m_text = nullptr;
    QLabel* m_position = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_previous = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_again = nullptr;
    bool m_updating = false;
    bool m_onScreen = true;
};

} // namespace kl::views

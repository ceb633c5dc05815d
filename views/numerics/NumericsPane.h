#pragma once

#include "numerics/NumericsResult.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;

namespace kl::views {

class NumericsHeatMap;
class NumericsHistogramPlot;
class NumericsInstructionModel;
class NumericsModel;

/// The Numerics dock: a numerics run's comparison table (NumericsModel), the error heat map and the histogram of
/// the selected row's output, and the instructions that added most rounding error (NumericsInstructionModel).
/// A run selector lists the runs on offer (the one just made, the review's stored runs). It only shows: choosing
/// an instruction emits instructionActivated, and the owner (app's NumericsController) takes the reviewer to the
/// timeline or the NKI line.
class NumericsPane : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString label; ///< "Run just made", "Stored run 3 (2026-12-01 ...): FAIL"
        std::shared_ptr<const core::NumericsResult> result;
    };

    explicit NumericsPane(QWidget* parent = nullptr);

    /// The runs to offer, newest first; the first is shown. Empty: the message of setMessage stays.
    void setRuns(std::vector<Entry> runs);
    /// A one-line state in place of the summary ("Running the kernel on values...", "Failed: see Problems").
    void setMessage(const QString& text);
    /// While a run is in flight: a busy bar and Cancel (which emits cancelRequested).
    void setBusy(bool busy);
    /// Shows output `output` in the heat map and histogram, and selects its first row.
    void showOutput(int output);

    [[nodiscard]] std::shared_ptr<const core::NumericsResult> result() const;
    [[nodiscard]] NumericsModel* model() const { return m_model; }
    [[nodiscard]] NumericsInstructionModel* instructionModel() const { return m_instructionModel; }
    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] QTableView* instructions() const { return m_instructions; }
    [[nodiscard]] NumericsHeatMap* heatMap() const { return m_heatMap; }
    [[nodiscard]] NumericsHistogramPlot* histogram() const { return m_histogram; }
    [[nodiscard]] QComboBox* runSelector() const { return m_runs; }
    [[nodiscard]] QLabel* summary() const { return m_summary; }
    [[nodiscard]] QTabWidget* plots() const { return m_plots; }
    [[nodiscard]] QPushButton* cancelButton() const { return m_cancel; }

signals:
    /// An instruction of the top-error list was chosen: its IR index and its source line.
    void instructionActivated(qint64 index, const QString& file, int line);
    void cancelRequested();

private:
    void showRun(int entry);
    void emitInstruction(int row);

    QComboBox* m_runs = nullptr;
    QLabel* m_summary = nullptr;
    QProgressBar* m_busy = nullptr;
    QPushButton* m_cancel = nullptr;
    QTableView* m_table = nullptr;
    QTableView* m_instructions = nullptr;
    QTabWidget* m_plots = nullptr;
    NumericsHeatMap* m_heatMap = nullptr;
    NumericsHistogramPlot* m_histogram = nullptr;
    NumericsModel* m_model = nullptr;
    NumericsInstructionModel* m_instructionModel = nullptr;
    std::vector<Entry> m_entries;
};

/// "nki_matmul: inputs normal, seed 0; reference reference.py:ref; CUDA tensor-core-bf16:16; tolerance default
/// (rtol 0.016, atol 1e-05) - all 3 comparisons pass": the pane's summary line.
[[nodiscard]] QString numericsSummaryText(const core::NumericsResult& result);

} // namespace kl::views

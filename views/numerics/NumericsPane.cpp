#include "numerics/NumericsPane.h"

#include "numerics/NumericsModel.h"
#include "numerics/NumericsPlots.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace kl::views {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name) {
    auto* table = new QTableView;
    table->setObjectName(name);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    return table;
}

} // namespace

QString numericsSummaryText(const core::NumericsResult& r) {
    const int failed = r.failedCount();
    const int total = r.comparisonCount();
    const QString verdict = total == 0    ? QObject::tr("no comparison made")
                            : failed == 0 ? QObject::tr("all %1 comparisons pass").arg(total)
                                          : QObject::tr("%1 of %2 comparisons FAIL").arg(failed).arg(total);
    return QObject::tr("%1: inputs %2, seed %3; reference %4; CUDA %5; tolerance %6 - %7")
        .arg(QString::fromStdString(r.kernel), QString::fromStdString(r.inputsKind))
        .arg(r.seed)
        .arg(r.reference.empty() ? QObject::tr("none") : QString::fromStdString(r.reference),
             QString::fromStdString(r.cudaNumerics), QString::fromStdString(core::toleranceSummary(r)), verdict);
}

NumericsPane::NumericsPane(QWidget* parent) : QWidget(parent) {
    m_model = new NumericsModel(this);
    m_instructionModel = new NumericsInstructionModel(this);
    m_runs = new QComboBox;
    m_runs->setObjectName(QStringLiteral("numericsRuns"));
    m_runs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_summary = new QLabel(tr("No numerics run yet: Run > Numerics... runs the kernel on real values."));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // value execution has no measurable fraction: a busy indicator
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the numerics run"));
    connect(m_cancel, &QPushButton::clicked, this, &NumericsPane::cancelRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(m_runs);
    top->addWidget(m_summary, 1);
    top->addWidget(m_busy);
    top->addWidget(m_cancel);

    m_table = makeTable(m_model, QStringLiteral("numericsTable"));
    m_instructions = makeTable(m_instructionModel, QStringLiteral("numericsInstructions"));
    m_instructions->setToolTip(tr("The instructions that added most rounding error. Enter or a click goes to the "
                                  "instruction on the timeline, or to its line when the run's shapes differ."));
    auto* left = new QSplitter(Qt::Vertical);
    left->addWidget(m_table);
    left->addWidget(m_instructions);
    m_heatMap = new NumericsHeatMap;
    m_histogram = new NumericsHistogramPlot;
    m_plots = new QTabWidget;
    m_plots->addTab(m_heatMap, tr("Error heat map"));
    m_plots->addTab(m_histogram, tr("Error histogram"));
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(m_plots);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(m_runs, &QComboBox::currentIndexChanged, this, &NumericsPane::showRun);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    const int output = m_model->data(current, NumericsModel::OutputRole).toInt();
                    m_heatMap->setOutput(result(), output);
                    const auto r = result();
                    m_histogram->setOutput(r ? &r->outputs[static_cast<std::size_t>(output)] : nullptr);
                }
            });
    connect(m_instructions, &QTableView::activated, this, [this](const QModelIndex& i) { emitInstruction(i.row()); });
    connect(m_instructions->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    emitInstruction(current.row());
                }
            });
    m_runs->setVisible(false);
    setBusy(false);
}

void NumericsPane::setBusy(bool busy) {
    m_busy->setVisible(busy);
    m_cancel->setVisible(busy);
}

std::shared_ptr<const core::NumericsResult> NumericsPane::result() const {
    return m_model->result();
}

void NumericsPane::setRuns(std::vector<Entry> runs) {
    m_entries = std::move(runs);
    const QSignalBlocker block(m_runs);
    m_runs->clear();
    for (const Entry& e : m_entries) {
        m_runs->addItem(e.label);
    }
    m_runs->setVisible(m_entries.size() > 1);
    showRun(m_entries.empty() ? -1 : 0);
}

void NumericsPane::setMessage(const QString& text) {
    m_summary->setText(text);
}

void NumericsPane::showRun(int entry) {
    const auto r = entry >= 0 && static_cast<std::size_t>(entry) < m_entries.size()
                       ? m_entries[static_cast<std::size_t>(entry)].result
                       : nullptr;
    m_model->setResult(r);
    m_instructionModel->setResult(r);
    m_table->resizeColumnsToContents();
    m_instructions->resizeColumnsToContents();
    if (!r) {
        m_heatMap->setOutput(nullptr, -1);
        m_histogram->setOutput(nullptr);
        return;
    }
    m_summary->setText(numericsSummaryText(*r));
    // The first failing output comes first: that is what the reviewer opens the dock for.
    int output = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (!m_model->data(m_model->index(row, 0), NumericsModel::PassedRole).toBool()) {
            output = m_model->data(m_model->index(row, 0), NumericsModel::OutputRole).toInt();
            break;
        }
    }
    showOutput(output);
}

void NumericsPane::showOutput(int output) {
    const auto r = result();
    if (!r || output < 0 || static_cast<std::size_t>(output) >= r->outputs.size()) {
        return;
    }
    const int row = m_model->firstRowOf(output);
    if (row >= 0) {
        m_table->selectionModel()->setCurrentIndex(m_model->index(row, 0),
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    m_heatMap->setOutput(r, output);
    m_histogram->setOutput(&r->outputs[static_cast<std::size_t>(output)]);
}

void NumericsPane::emitInstruction(int row) {
    const QModelIndex i = m_instructionModel->index(row, 0);
    if (!i.isValid()) {
        return;
    }
    emit instructionActivated(m_instructionModel->data(i, NumericsInstructionModel::IndexRole).toLongLong(),
                              m_instructionModel->data(i, NumericsInstructionModel::FileRole).toString(),
                              m_instructionModel->data(i, NumericsInstructionModel::LineRole).toInt());
}

} // namespace kl::views

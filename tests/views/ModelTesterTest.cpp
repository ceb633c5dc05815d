// Every item model in views/ under QAbstractItemModelTester in fatal mode (STYLE.md, issue 22): filled with real
// data, then reset or updated the way its pane does it (a new run, new decisions, a sort, a filter, a clear), so a
// model that breaks Qt's contract (rows announced but not there, a reset without begin/end, bad parents) aborts the
// test. Each case also checks what the rows hold, so the data is really in the model.
#include "common/TrustedLocationsModel.h"
#include "compare/ComparisonModel.h"
#include "findings/FindingsModel.h"
#include "numerics/NumericsModel.h"
#include "review/AnnotationListModel.h"
#include "review/ScorecardModel.h"
#include "review/TaskQueueModel.h"
#include "source/HotLinesModel.h"
#include "team/AgreementItemsModel.h"
#include "team/DisagreementsModel.h"
#include "team/DisputeDetailModel.h"
#include "team/ReviewerLensModel.h"
#include "whatif/WhatIfModel.h"

#include "compare/RunComparison.h"
#include "numerics/NumericsReader.h"
#include "result/SimResult.h"
#include "rubric/RubricLoader.h"
#include "support/ResourcePaths.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <memory>

using kl::views::AgreementItemsModel;
using kl::views::AnnotationFilterModel;
using kl::views::AnnotationListModel;
using kl::views::ComparisonModel;
using kl::views::DisagreementsModel;
using kl::views::DisputeDetailModel;
using kl::views::FindingsModel;
using kl::views::HotLinesModel;
using kl::views::NumericsInstructionModel;
using kl::views::NumericsModel;
using kl::views::ReviewerLensModel;
using kl::views::ScorecardModel;
using kl::views::TaskQueueModel;
using kl::views::TrustedLocationsModel;
using kl::views::WhatIfModel;
namespace fd = kl::core::findings;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

kl::sim::SimResult run(kl::sim::TimePs totalPs, double vectorPct) {
    kl::sim::SimResult r;
    r.summary.totalPs = totalPs;
    r.summary.instructionCount = 12;
    r.summary.engine(kl::sim::Engine::Vector).activePct = vectorPct;
    r.summary.dmaBytes = 1 << 20;
    return r;
}

fd::Finding finding(const char* rule, kl::core::Severity severity) {
    fd::Finding f;
    f.rule = rule;
    f.severity = severity;
    f.title = rule;
    f.figures.push_back({"share_pct", 40.0, "%", 25.0});
    return f;
}

kl::core::Annotation annotation(std::int64_t id, kl::core::Severity severity, const char* author) {
    kl::core::Annotation a;
    a.id = id;
    a.taskId = 1;
    a.severity = severity;
    a.text = "look at this";
    a.author = author;
    a.rubricItem = "perf.dma";
    return a;
}

std::shared_ptr<const kl::core::NumericsResult> numerics(const char* name) {
    auto r = kl::core::readNumericsFile(std::string(KL_SOURCE_DIR) + "/tests/core/data/numerics/" + name);
    if (!r) {
        qFatal("%s", kl::formatError(r.error()).c_str());
    }
    return std::make_shared<const kl::core::NumericsResult>(std::move(*r));
}

kl::core::LineCostTable lineCosts(int lines) {
    kl::core::LineCostTable t;
    for (int line = 1; line <= lines; ++line) {
        const kl::sim::TimePs ps = 1000 * line;
        t.lines.push_back({line, ps, 0, static_cast<std::uint32_t>(line)});
        t.totalPs += ps;
        t.instructions += static_cast<std::uint64_t>(line);
    }
    t.attributedPs = t.totalPs;
    t.attributedInstructions = t.instructions;
    for (auto& c : t.lines) {
        c.share = static_cast<double>(c.timePs) / static_cast<double>(t.totalPs);
        t.maxShare = std::max(t.maxShare, c.share);
    }
    return t;
}

kl::core::Task task(std::int64_t id, const char* title, kl::core::TaskStatus status, std::int64_t seconds) {
    kl::core::Task t;
    t.id = id;
    t.folder = std::string("task_") + std::to_string(id);
    t.title = title;
    t.status = status;
    t.secondsSpent = seconds;
    return t;
}

kl::core::Rubric migrationRubric() {
    auto rubric =
        kl::core::RubricLoader::loadFile((kl::core::resourcesDir() / "rubrics" / "nki-migration.json").string());
    if (!rubric) {
        qFatal("%s", kl::formatError(rubric.error()).c_str());
    }
    return std::move(*rubric);
}

} // namespace

class ModelTesterTest : public QObject {
    Q_OBJECT

private slots:
    void comparisonModel() {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setComparison(kl::core::RunComparison(run(2'000'000, 40), run(1'000'000, 80), "naive", "tiled"));
        QVERIFY(model.rowCount() > 4);
        const int rows = model.rowCount();
        model.setComparison(kl::core::RunComparison(run(3'000'000, 10), run(3'000'000, 10), "a", "b"));
        QCOMPARE(model.rowCount(), rows); // the same figures, other values
        model.setComparison({});
        QCOMPARE(model.rowCount(), 0);
    }

    void findingsModel() {
        using kl::core::Severity;
        FindingsModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        std::vector<fd::Finding> findings = {finding("roofline", Severity::Nit),
                                             finding("tail-not-handled", Severity::Blocking),
                                             finding("engine-bound", Severity::Minor)};
        model.setFindings(findings);
        QCOMPARE(model.rowCount(), 3);
        std::vector<fd::FindingDecision> decisions(3);
        decisions[1].acceptedAs = 7;
        model.setDecisions(decisions);
        QCOMPARE(model.rowCount(), 3);
        model.sort(FindingsModel::Severity, Qt::DescendingOrder);
        findings.pop_back();
        model.setFindings(findings);
        QCOMPARE(model.rowCount(), 2);
        model.setFindings({});
        QCOMPARE(model.rowCount(), 0);
    }

    void numericsModels() {
        NumericsModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        NumericsInstructionModel instructions;
        QAbstractItemModelTester instructionTester(&instructions, kFatal);
        model.setResult(numerics("ragged_fail.json"));
        instructions.setResult(numerics("ragged_fail.json"));
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(instructions.rowCount() > 0);
        model.setResult(numerics("matmul_pass.json"));
        instructions.setResult(numerics("matmul_pass.json"));
        QVERIFY(model.rowCount() > 0);
        model.setResult(nullptr);
        instructions.setResult(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(instructions.rowCount(), 0);
    }

    void annotationModelAndFilter() {
        using kl::core::Severity;
        AnnotationListModel model;
        AnnotationFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&model, kFatal);
        QAbstractItemModelTester filterTester(&filter, kFatal);
        model.setAnnotations({annotation(1, Severity::Major, "ana"), annotation(2, Severity::Nit, "ben"),
                              annotation(3, Severity::Blocking, "ana")});
        QCOMPARE(model.rowCount(), 3);
        filter.setAuthorFilter(QStringLiteral("ana"));
        QCOMPARE(filter.rowCount(), 2);
        model.setAnnotations({annotation(2, Severity::Nit, "ben")});
        QCOMPARE(filter.rowCount(), 0);
        filter.setAuthorFilter({});
        QCOMPARE(filter.rowCount(), 1);
        model.setAnnotations({});
        QCOMPARE(model.rowCount(), 0);
    }

    void hotLinesModel() {
        HotLinesModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setTable(lineCosts(5), {"a", "b", "c", "d", "e"});
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.index(0, HotLinesModel::LineColumn).data().toInt(), 5); // the costliest line first
        model.sort(HotLinesModel::LineColumn, Qt::AscendingOrder);
        QCOMPARE(model.index(0, HotLinesModel::LineColumn).data().toInt(), 1);
        model.setTable(lineCosts(2));
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void taskQueueModel() {
        using kl::core::TaskStatus;
        TaskQueueModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setLooseTask(QStringLiteral("Tiny add")); // a task folder opened on its own
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data().toString(), QStringLiteral("Tiny add"));
        QVERIFY(!model.taskIdAt(0));
        model.setTasks({task(4, "Softmax", TaskStatus::Todo, 0), task(9, "Matmul", TaskStatus::InProgress, 75)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1).data().toString(), QStringLiteral("\u25D0  Matmul   1:15"));
        QCOMPARE(model.index(1).data(Qt::ToolTipRole).toString(), QStringLiteral("task_9: in_progress, 1:15 spent"));
        QCOMPARE(model.index(1).data(TaskQueueModel::TaskIdRole).toLongLong(), 9);
        QCOMPARE(model.rowOfTask(9), 1);
        // The same tasks with a new status update in place: persistent indexes (the view's current row) survive.
        const QPersistentModelIndex matmul(model.index(1));
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setTasks({task(4, "Softmax", TaskStatus::Todo, 0), task(9, "Matmul", TaskStatus::Done, 80)});
        QVERIFY(matmul.isValid());
        QCOMPARE(resets.count(), 0);
        QVERIFY(matmul.data().toString().startsWith(QStringLiteral("\u25CF")));
        // Other tasks (another review) reset the list.
        model.setTasks({task(2, "RMSNorm", TaskStatus::Todo, 0)});
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.rowOfTask(9), -1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void scorecardModel() {
        const kl::core::Rubric rubric = migrationRubric();
        ScorecardModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setRubric(&rubric);
        QCOMPARE(model.rowCount(), 0); // no task's scorecard yet
        std::vector<kl::core::Score> scores{{1, "fidelity.semantics", 1, "ana", "t"}, {1, "perf.dma", 5, "ana", "t"}};
        model.setScorecard(kl::core::computeScorecard(rubric, scores, {}));
        QCOMPARE(model.rowCount(), static_cast<int>(rubric.areas.size()));
        const QModelIndex firstArea = model.index(0, ScorecardModel::ItemColumn);
        QCOMPARE(firstArea.data().toString(), QString::fromStdString(rubric.areas.front().title));
        QVERIFY(firstArea.data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model.rowCount(firstArea), static_cast<int>(rubric.areas.front().items.size()));
        const QModelIndex dma = model.indexOfItem(QStringLiteral("perf.dma"), ScorecardModel::ScoreColumn);
        QCOMPARE(dma.data(Qt::EditRole).toInt(), 5);
        QVERIFY(dma.flags() & Qt::ItemIsEditable);
        QVERIFY(!(firstArea.flags() & Qt::ItemIsEditable));
        QCOMPARE(dma.data(ScorecardModel::ChoicesRole).toStringList().size(),
                 dma.data(ScorecardModel::ChoiceValuesRole).toList().size());
        // Choosing a score asks the owner; the owner's new scorecard updates the rows in place.
        QSignalSpy chosen(&model, &ScorecardModel::scoreChosen);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QVERIFY(model.setData(dma, 2, Qt::EditRole));
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.front().at(0).toString(), QStringLiteral("perf.dma"));
        QCOMPARE(chosen.front().at(1).toInt(), 2);
        QCOMPARE(dma.data(Qt::EditRole).toInt(), 5);    // not taken yet
        QVERIFY(!model.setData(dma, 99, Qt::EditRole)); // not on the scale
        const QPersistentModelIndex kept(dma);
        scores[1].value = 2;
        model.setScorecard(kl::core::computeScorecard(rubric, scores, {}));
        QVERIFY(kept.isValid());
        QCOMPARE(resets.count(), 0);
        QCOMPARE(kept.data(Qt::EditRole).toInt(), 2);
        model.setScorecard(std::nullopt); // the review closed its task
        QCOMPARE(model.rowCount(), 0);
        model.setScorecard(kl::core::computeScorecard(rubric, {}, {}));
        QCOMPARE(model.indexOfItem(QStringLiteral("perf.dma"), 1).data(Qt::EditRole).toInt(),
                 ScorecardModel::kUnscored);
        model.setRubric(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void whatIfModel() {
        WhatIfModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        QCOMPARE(model.rowCount(), 7);
        QVERIFY(model.index(0, WhatIfModel::Base).data().toString().isEmpty()); // no run yet
        model.setBase(std::make_shared<const kl::sim::SimResult>(run(2'000'000, 40)));
        QCOMPARE(model.index(0, WhatIfModel::Base).data().toString(), QStringLiteral("2.00 us"));
        QCOMPARE(model.index(0, WhatIfModel::WhatIf).data().toString(), QStringLiteral("\u2013"));
        model.setWhatIf(std::make_shared<const kl::sim::SimResult>(run(3'000'000, 20)));
        QCOMPARE(model.index(0, WhatIfModel::Delta).data().toString(), QStringLiteral("+1.00 us (+50.0%)"));
        QCOMPARE(model.index(0, WhatIfModel::Delta).data(Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x24, 0x24));
        QCOMPARE(model.index(2, WhatIfModel::Delta).data().toString(), QStringLiteral("-20.0%")); // VectorE
        QVERIFY(!model.index(2, WhatIfModel::Delta).data(Qt::ForegroundRole).isValid()); // only times are coloured
        model.setWhatIf(nullptr);
        QVERIFY(model.index(0, WhatIfModel::Delta).data().toString().isEmpty());
        model.setBase(nullptr);
        QVERIFY(model.index(0, WhatIfModel::Base).data().toString().isEmpty());
        QCOMPARE(model.index(0, WhatIfModel::Figure).data().toString(), QStringLiteral("Total time"));
    }

    void trustedLocationsModel() {
        using kl::core::TrustKind;
        TrustedLocationsModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setEntries(
            {{TrustKind::Folder, "/home/ana/tasks", "task folder /home/ana/tasks/t1", "2026-12-01T10:20:30Z"},
             {TrustKind::Author, "Ben", "reviews by Ben", "2026-12-01T11:00:00Z"}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, TrustedLocationsModel::KindColumn).data().toString(), QStringLiteral("Folder"));
        QCOMPARE(model.index(0, TrustedLocationsModel::AddedColumn).data().toString(),
                 QStringLiteral("2026-12-01 10:20:30"));
        QCOMPARE(model.index(1, TrustedLocationsModel::LabelColumn).data(TrustedLocationsModel::ValueRole).toString(),
                 QStringLiteral("Ben")); // any cell names its entry
        QCOMPARE(model.index(1, 0).data(TrustedLocationsModel::KindRole).toInt(), static_cast<int>(TrustKind::Author));
        QVERIFY(model.index(0, TrustedLocationsModel::ValueColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("/home/ana/tasks")));
        model.setEntries({{TrustKind::Author, "Ben", "reviews by Ben", "2026-12-01T11:00:00Z"}}); // one revoked
        QCOMPARE(model.rowCount(), 1);
        model.setEntries({});
        QCOMPARE(model.rowCount(), 0);
    }

    void reviewerLensModel() {
        ReviewerLensModel model;
        QAbstractItemModelTester tester(&model, kFatal);
        model.setReviewers({QStringLiteral("ana"), QStringLiteral("bo")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        QSignalSpy changed(&model, &ReviewerLensModel::visibilityChanged);
        QVERIFY(model.setData(model.index(1), Qt::Unchecked, Qt::CheckStateRole)); // the user unticks bo
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.hidden(), QSet<QString>{QStringLiteral("bo")});
        // The same reviewers again (after an adjudication) keep the user's ticks; a new one is shown.
        model.setReviewers({QStringLiteral("ana"), QStringLiteral("bo"), QStringLiteral("cy")});
        QCOMPARE(model.index(1).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
        QCOMPARE(model.index(2).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        model.setReviewers({QStringLiteral("bo")}); // a first list after clear shows everyone
        QVERIFY(model.hidden().isEmpty());
    }

    void disagreementModels() {
        kl::core::team::Disagreement d;
        d.taskId = 3;
        d.taskTitle = "Row softmax";
        d.item = "perf.dma";
        d.scores = {{"ana", 2}, {"bo", 5}};
        d.spread = 0.75;
        DisagreementsModel disputes;
        QAbstractItemModelTester tester(&disputes, kFatal);
        DisputeDetailModel detail;
        QAbstractItemModelTester detailTester(&detail, kFatal);
        kl::core::team::Disagreement other = d;
        other.taskId = 4;
        disputes.setDisagreements({d, other});
        QCOMPARE(disputes.rowCount(), 2);
        QCOMPARE(disputes.index(0, DisagreementsModel::Scores).data().toString(), QStringLiteral("ana 2\nbo 5"));
        QCOMPARE(disputes.index(0, DisagreementsModel::Agreed).data().toString(), QStringLiteral("-"));
        QVERIFY(disputes.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("spread 75 %")));
        QCOMPARE(disputes.rowOf(4, QStringLiteral("perf.dma")), 1);
        kl::core::Annotation said = annotation(1, kl::core::Severity::Minor, "bo");
        said.taskId = 3;
        said.text = "bo says why";
        detail.setDispute(disputes.at(0), {said});
        QCOMPARE(detail.rowCount(), 2);
        QCOMPARE(detail.index(1, DisputeDetailModel::Said).data().toString(), QStringLiteral("bo says why"));
        QCOMPARE(detail.index(0, DisputeDetailModel::Said).data().toString(),
                 QStringLiteral("(no annotation on this item)"));
        d.agreed = 4; // adjudicated: the report comes back
        disputes.setDisagreements({other, d});
        QCOMPARE(disputes.index(disputes.rowOf(3, QStringLiteral("perf.dma")), 2).data().toString(),
                 QStringLiteral("4"));
        disputes.setDisagreements({});
        detail.setDispute(nullptr, {});
        QCOMPARE(disputes.rowCount(), 0);
        QCOMPARE(detail.rowCount(), 0);
    }

    void agreementItemsModel() {
        const kl::core::Rubric rubric = migrationRubric();
        kl::core::team::AgreementReport report;
        kl::core::team::ItemAgreement a;
        a.item = "perf.dma";
        a.level = kl::core::team::Level::Ordinal;
        a.alpha.value = 0.8121;
        a.kappaMethod = "cohen";
        report.items = {a};
        report.overall.item = "overall";
        AgreementItemsModel model;
        QSortFilterProxyModel sorted; // as the pane shows it
        sorted.setSourceModel(&model);
        QAbstractItemModelTester tester(&model, kFatal);
        QAbstractItemModelTester sortedTester(&sorted, kFatal);
        model.setReport(report, &rubric);
        QCOMPARE(model.rowCount(), 2); // the item, then overall
        QCOMPARE(model.index(0, 0).data().toString(), QString::fromStdString(rubric.findItem("perf.dma")->title));
        QCOMPARE(model.index(0, AgreementItemsModel::Alpha).data().toString(), QStringLiteral("0.812"));
        QCOMPARE(model.index(0, AgreementItemsModel::Kappa).data().toString(), QStringLiteral("-"));
        QCOMPARE(model.index(0, 0).data(AgreementItemsModel::LevelRole).toString(), QStringLiteral("ordinal"));
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Overall"));
        sorted.sort(AgreementItemsModel::Item, Qt::DescendingOrder); // "Overall" after "DMA orchestration"
        QCOMPARE(sorted.index(0, 0).data().toString(), QStringLiteral("Overall"));
        report.items.clear(); // a review without scores: no rows, not even overall
        model.setReport(report, nullptr);
        QCOMPARE(sorted.rowCount(), 0);
    }
};

QTEST_MAIN(ModelTesterTest)
#include "ModelTesterTest.moc"

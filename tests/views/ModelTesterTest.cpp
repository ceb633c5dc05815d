// Every item model in views/ under QAbstractItemModelTester in fatal mode (STYLE.md, issue 22): filled with real
// data, then reset or updated the way its pane does it (a new run, new decisions, a sort, a filter, a clear), so a
// model that breaks Qt's contract (rows announced but not there, a reset without begin/end, bad parents) aborts the
// test. Each case also checks what the rows hold, so the data is really in the model.
#include "compare/ComparisonModel.h"
#include "findings/FindingsModel.h"
#include "numerics/NumericsModel.h"
#include "review/AnnotationListModel.h"
#include "source/HotLinesModel.h"

#include "compare/RunComparison.h"
#include "numerics/NumericsReader.h"
#include "result/SimResult.h"

#include <QAbstractItemModelTester>
#include <QtTest>

#include <memory>

using kl::views::AnnotationFilterModel;
using kl::views::AnnotationListModel;
using kl::views::ComparisonModel;
using kl::views::FindingsModel;
using kl::views::HotLinesModel;
using kl::views::NumericsInstructionModel;
using kl::views::NumericsModel;
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
};

QTEST_MAIN(ModelTesterTest)
#include "ModelTesterTest.moc"

#include "ReportFixture.h"

#include "TestSupport.h"
#include "report/ReportBuilder.h"
#include "review/TextCheck.h"
#include "result/SyntheticRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <fstream>
#include <sstream>

namespace kl::core::report::test {

namespace {

constexpr const char* kKernel = R"(import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def nki_matmul(lhsT, rhs):
    result = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    for m in nl.affine_range(4):  # cuda: 9
        lhs_tile = nl.load(lhsT[:, m * 128:(m + 1) * 128])
        rhs_tile = nl.load(rhs[:, 0:512])
        acc = nl.matmul(lhs_tile, rhs_tile, transpose_x=True)
        res = nl.copy(acc, dtype=nl.float32)
        nl.store(result[m * 128:(m + 1) * 128, :], value=res)
    return result
)";

constexpr const char* kCuda = R"(__global__ void matmul(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) {
        sum += a[k * n + row] * b[k * n + col];
    }
    c[row * n + col] = sum;
}
)";

constexpr const char* kTaskJson =
    R"({"format": 1, "title": "Tiled matmul", "description": "Matrix multiply in 128-row tiles.",
 "kernel_file": "kernel.py", "kernel": "nki_matmul", "cuda_file": "kernel.cu", "cuda_kernel": "matmul",
 "args": [{"name": "lhsT", "shape": [128, 512], "dtype": "bfloat16"}, {"name": "rhs", "shape": [128, 512], "dtype": "bfloat16"}],
 "hardware": "trn1"})";

template <typename T> T must(Expected<T> e) {
    if (!e) {
        ADD_FAILURE() << formatError(e.error());
        std::abort();
    }
    return std::move(*e);
}

} // namespace

void fillSampleReview(ReviewFile& file) {
    const Task task = must(file.tasks().add(
        "matmul_tiled", "Tiled matmul",
        {{"task.json", "task_json", kTaskJson}, {"kernel.py", "nki", kKernel}, {"kernel.cu", "cuda", kCuda}}));
    must(
        file.runs().add({0,
                         task.id,
                         "baseline",
                         R"({"name":"trn1"})",
                         R"({"total_time_ns": 48580.125, "instruction_count": 30, "engine_active_pct": {"tensor": 37.25,
                              "vector": 12.5, "scalar": 3.0, "gpsimd": 0.0}, "dma_active_pct": 80.5, "dma_exposed_ns": 1200.0,
                              "dma_bytes": 1048576, "mfu_pct": 21.75, "hbm_bandwidth_utilization_pct": 44.125,
                              "sbuf_peak_bytes": 98304, "psum_peak_bytes": 2048, "flops": 67108864.0})",
                         {}}));
    must(file.scores().set(task.id, "hw.partition_dim", 4, "alice"));
    must(file.scores().set(task.id, "num.accumulation", 1, "alice"));
    Annotation a;
    a.taskId = task.id;
    a.author = "alice";
    a.anchor = Anchor::timeRange(1200, 3400);
    a.severity = Severity::Major;
    a.rubricItem = "perf.overlap";
    a.score = 2;
    a.text = "Loads of tile k+1 wait for the matmul of tile k:\nno double buffering.";
    const Annotation first = must(file.annotations().create(a));
    must(file.annotations().addReply(first.id, "bob", "Agreed; hoist the rhs load out of the loop."));
    a.anchor = Anchor::instruction(7);
    a.severity = Severity::Minor;
    a.rubricItem = "hw.engine_choice";
    a.score.reset();
    a.text = "This copy runs on VectorE; ScalarE is idle here.";
    must(file.annotations().create(a));
    a.anchor = Anchor::nkiLines(8, 10);
    a.severity = Severity::Praise;
    a.rubricItem.clear();
    a.text = "Clean tiling over the partition dimension.";
    const Annotation third = must(file.annotations().create(a));
    a.anchor = Anchor::cudaLines(4, 6);
    a.severity = Severity::Blocking;
    a.rubricItem = "num.accumulation";
    a.text = "The CUDA kernel accumulates in fp32; check that PSUM accumulation keeps that.";
    const Annotation fourth = must(file.annotations().create(a));
    must(file.annotations().addReply(fourth.id, "bob", "PSUM accumulates in fp32, resolved."));
    Annotation resolved = fourth;
    resolved.resolved = true;
    must(file.annotations().update(resolved));
    (void)third;
    // A numerics run that failed (a missing mask on a ragged tile): the report's Numerics section lists it.
    must(file.numericsRuns().add(
        task.id, kl::core::test::readBytes(std::string(KL_SOURCE_DIR) + "/tests/core/data/numerics/ragged_fail.json")));
}

Report sampleReport(ReviewFile& file) {
    BuildOptions options;
    options.generatedAt = "2026-01-01T00:00:00.000Z";
    options.wantRun = true;
    options.simulate = [](const Task&,
                          const std::vector<TaskFile>&) -> Expected<std::shared_ptr<const sim::SimResult>> {
        return std::shared_ptr<const sim::SimResult>(sim::makeSyntheticRun(30, 1000, 200));
    };
    ReportBuilder builder(file, options);
    Report report = must(builder.build());
    report.reviewFile = "sample.klreview";
    for (ReportTask& t : report.tasks) {
        t.metricsSource = "stored run 'baseline'";
        for (ReportNumericsRun& n : t.numerics) {
            n.createdAt = "2026-01-01T12:00:00.000Z";
        }
        for (ReportAnnotation& a : t.annotations) {
            a.annotation.createdAt = a.annotation.updatedAt = "2026-01-01T10:00:00.000Z";
            for (Reply& r : a.replies) {
                r.createdAt = "2026-01-01T11:00:00.000Z";
            }
        }
    }
    return report;
}

Report hostileReport() {
    const std::string evil =
        "<script>alert(1)</script> \"q\" 'a' & <img src=x onerror=alert(2)> "
        "[click](javascript:alert(3)) ![i](http://x/y.png) # head *em* _u_ | pipe \xff\xfe bad \xc3\x28";
    const std::string formula = "=cmd|' /C calc'!A0";
    Report r;
    r.title = "Report " + evil;
    r.reviewFile = "<b>review</b>.klreview";
    r.rubricTitle = formula;
    r.rubricVersion = "@SUM(A1)";
    r.generatedAt = "+1";
    ReportTask t;
    t.task.id = 1;
    t.task.folder = "-2+3";
    t.task.title = evil;
    t.kernel = "<svg onload=alert(4)>";
    t.hardware = "trn1";
    t.description = evil;
    t.metricsSource = evil;
    t.metrics.push_back({"k", evil, formula});
    AreaScore area{"area", evil, 3.0, {}};
    area.items.push_back({"item.one", formula, ScaleKind::Levels, 3, 3.0, evil, 1});
    area.items.push_back({"@item", "+cmd", ScaleKind::PassFail, 0, std::nullopt, "-fail", 0});
    t.scorecard.areas.push_back(area);
    t.scorecard.reasons.push_back(evil);
    ReportAnnotation a;
    a.number = 1;
    a.annotation.id = 9;
    a.annotation.taskId = 1;
    a.annotation.anchor = Anchor::nkiLines(1, 2);
    a.annotation.rubricItem = "item.one";
    a.annotation.severity = Severity::Blocking;
    a.annotation.text = evil + "\n1. list\n    code\n> quote";
    a.annotation.author = "<i>mallory</i>";
    a.annotation.createdAt = "=1+1";
    a.replies.push_back({1, 9, "=HYPERLINK(\"http://x\")", evil + "\nsecond line", "@now"});
    a.snippets.push_back({"nki", "<k>.py", 1, {"x = '```' + \"</pre><script>alert(5)</script>\"", "y = 1 ```` \xff"}});
    t.annotations.push_back(a);
    ReportAnnotation b = a;
    b.number = 2;
    b.annotation.anchor = Anchor::timeRange(0, 500);
    b.snippets.clear();
    t.annotations.push_back(b);
    t.result = sim::makeSyntheticRun(20);
    ReportNumericsRun n{1, evil, evil, evil, evil, formula, evil, false, {}, {}, evil};
    n.comparisons.push_back({evil, formula, "nki_vs_exact", 1.5, std::numeric_limits<double>::infinity(), 3, 0.5, 7,
                             12.5, 0.016, 1e-5, false});
    n.topInstructions.push_back({4, evil, evil, 12, std::numeric_limits<double>::quiet_NaN()});
    t.numerics.push_back(std::move(n));
    r.tasks.push_back(std::move(t));
    return r;
}

void expectGolden(const std::string& name, const std::string& actual) {
    const std::string base = std::string(KL_GOLDEN_DIR) + "/" + name;
    const std::string expectedPath = base + ".expected";
    const std::string actualPath = base + ".actual";
    const char* update = std::getenv("KL_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        kl::core::test::writeBytes(expectedPath, actual);
        std::remove(actualPath.c_str());
        return;
    }
    const std::string expected = kl::core::test::readBytes(expectedPath);
    if (expected == actual) {
        std::remove(actualPath.c_str());
        return;
    }
    kl::core::test::writeBytes(actualPath, actual);
    const std::string command = "diff -u '" + expectedPath + "' '" + actualPath + "'";
    std::fflush(stdout);
    const int status = std::system(command.c_str());
    (void)status;
    ADD_FAILURE() << name << " differs from its golden file; see the diff above, or run with KL_UPDATE_GOLDEN=1 "
                  << "to accept it (actual output in " << actualPath << ")";
}

bool isValidUtf8(const std::string& s) {
    return kl::core::isValidUtf8(s);
}

} // namespace kl::core::report::test

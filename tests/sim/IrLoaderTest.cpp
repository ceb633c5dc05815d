#include "TestIr.h"

#include "ir/IrLoader.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TEST(IrLoader, LoadsBuffersInstructionsAndLocations) {
    TestIr t;
    const int a = t.buffer("a", "hbm", {128, 512});
    const int s = t.buffer("s", "sbuf", {128, 512});
    t.add("dma_copy", "dma", {t.whole(s)}, {t.whole(a)}, TestIr::Json::object(), 41);
    t.add("nc_matmul", "tensor", {t.whole(s)}, {t.whole(s), t.whole(s)}, {{"accumulate", true}, {"moving_free", 512}},
          42);
    const KernelIr ir = t.load();
    ASSERT_EQ(ir.instructions().size(), 2u);
    ASSERT_EQ(ir.buffers().size(), 2u);
    EXPECT_EQ(ir.kernelName, "test_kernel");
    EXPECT_EQ(ir.buffers()[1].memory, Memory::Sbuf);
    EXPECT_EQ(ir.buffers()[1].bytesPerPartition(), 1024);
    const Instruction& mm = ir.instructions()[1];
    EXPECT_EQ(mm.op, Op::NcMatmul);
    EXPECT_EQ(mm.engine, Engine::Tensor);
    EXPECT_TRUE(ir.attrs(mm).accumulate);
    EXPECT_EQ(ir.attrs(mm).movingFree, 512u);
    EXPECT_EQ(ir.srcs(mm).size(), 2u);
    EXPECT_EQ(ir.innermostLoc(mm).line, 42u);
    const AccessPattern& hb = ir.srcs(ir.instructions()[0])[0];
    EXPECT_EQ(elementRange(ir, hb).hi, 128 * 512);
}

TEST(IrLoader, ToleratesUnknownKeysAndOps) {
    const std::string json = R"({"ir_version": 1, "future_field": {"x": [1,2]},
      "kernel": {"name": "k", "grid": [1], "extra": true},
      "files": ["k.py"],
      "buffers": [{"id": 7, "name": "t", "memory": "sbuf", "shape": [64, 32], "dtype": "float32", "dtype_bytes": 4, "new_key": 1}],
      "instructions": [{"id": 0, "op": "nc_warp_drive", "engine": "vector", "dst": [{"buf": 7, "part": [0, 64], "offset": 0,
                        "pattern": [[1, 32]], "dtype": "float32", "hint": "x"}], "src": [], "elements": 2048, "bytes": 8192,
                        "attrs": {"speed": 9}, "loc": [], "iter": [], "pid": [0], "other": null}]})";
    auto ir = IrLoader::loadString(json);
    ASSERT_TRUE(ir.has_value()) << formatError(ir.error());
    EXPECT_EQ(ir->instructions()[0].op, Op::Unknown);
    EXPECT_EQ(ir->dsts(ir->instructions()[0])[0].buffer, 0u); // id 7 -> index 0
    ASSERT_FALSE(ir->diagnostics.empty());
    EXPECT_NE(ir->diagnostics.back().message.find("nc_warp_drive"), std::string::npos);
}

TEST(IrLoader, RejectsUnknownVersionNamingBoth) {
    auto ir = IrLoader::loadString(R"({"ir_version": 7, "buffers": [], "instructions": []})", "k.ir.json");
    ASSERT_FALSE(ir.has_value());
    EXPECT_EQ(ir.error().code, ErrorCode::Unsupported);
    EXPECT_NE(ir.error().message.find("7"), std::string::npos);
    EXPECT_NE(ir.error().message.find("version 1"), std::string::npos);
    EXPECT_EQ(ir.error().file, "k.ir.json");
}

TEST(IrLoader, ReportsBadJsonAndBadInstructions) {
    auto bad = IrLoader::loadString(R"({"ir_version": 1, "buffers": [)");
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, ErrorCode::Parse);

    auto noVersion = IrLoader::loadString(R"({"buffers": [], "instructions": []})");
    ASSERT_FALSE(noVersion.has_value());
    EXPECT_NE(noVersion.error().message.find("ir_version"), std::string::npos);

    auto badEngine = IrLoader::loadString(
        R"({"ir_version": 1, "buffers": [], "instructions": [{"id": 5, "op": "memset", "engine": "warp"}]})");
    ASSERT_FALSE(badEngine.has_value());
    EXPECT_NE(badEngine.error().message.find("instruction #0 (id 5)"), std::string::npos);

    auto badBuffer = IrLoader::loadString(R"({"ir_version": 1, "buffers": [], "instructions": [{"id": 0, "op": "memset",
        "engine": "vector", "dst": [{"buf": 3, "part": [0, 1], "offset": 0, "pattern": [[1, 1]]}]}]})");
    ASSERT_FALSE(badBuffer.has_value());
    EXPECT_NE(badBuffer.error().message.find("buffer id 3"), std::string::npos);

    auto missing = IrLoader::loadFile("/nonexistent/k.json");
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, ErrorCode::NotFound);
}

TEST(IrLoader, StoresInstructionsCompactly) {
    TestIr t;
    const int s = t.buffer("s", "sbuf", {128, 512});
    for (int i = 0; i < 1000; ++i) {
        t.add("tensor_copy", "vector", {t.whole(s)}, {t.whole(s)});
    }
    const KernelIr ir = t.load();
    // Fixed-size instruction + two 32-byte operands + a shared pattern + one location + one pid value.
    EXPECT_LT(ir.memoryBytes() / ir.instructions().size(), 200u);
}

} // namespace kl::sim::test

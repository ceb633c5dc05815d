#include "TestIr.h"

#include "ir/IrLoader.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TestIr::TestIr() {
    m_doc["ir_version"] = 1;
    m_doc["kernel"] =
        Json{{"name", "test_kernel"}, {"file", 0}, {"api", "legacy"}, {"grid", {1}}, {"args", Json::array()}};
    m_doc["files"] = Json::array({"kernel.py"});
    m_doc["buffers"] = Json::array();
    m_doc["instructions"] = Json::array();
    m_doc["diagnostics"] = Json::array();
}

int TestIr::buffer(const std::string& name, const std::string& memory, std::vector<std::int64_t> shape,
                   const std::string& dtype) {
    const int id = static_cast<int>(m_doc["buffers"].size());
    const std::int64_t eb = dtype == "float32" ? 4 : (dtype == "int8" || dtype == "float8_e4m3") ? 1 : 2;
    m_doc["buffers"].push_back(Json{{"id", id},
                                    {"name", name},
                                    {"memory", memory},
                                    {"shape", shape},
                                    {"dtype", dtype},
                                    {"dtype_bytes", eb},
                                    {"role", memory == "hbm" ? "input" : "tile"},
                                    {"decl", {{"file", 0}, {"line", 1}}}});
    m_bufferInfo.emplace_back(memory, eb);
    return id;
}

void TestIr::declare(int buffer, int line) {
    m_doc["buffers"][static_cast<std::size_t>(buffer)]["decl"]["line"] = line;
}

TestIr::Json TestIr::whole(int buffer) const {
    const Json& b = m_doc["buffers"][static_cast<std::size_t>(buffer)];
    const auto shape = b["shape"].get<std::vector<std::int64_t>>();
    if (b["memory"] == "hbm") {
        std::int64_t cols = 1;
        for (std::size_t i = 1; i < shape.size(); ++i)
            cols *= shape[i];
        return hbm(buffer, 0, shape[0], cols, cols);
    }
    std::int64_t free = 1;
    for (std::size_t i = 1; i < shape.size(); ++i)
        free *= shape[i];
    return part(buffer, 0, static_cast<int>(shape[0]), 0, free);
}

TestIr::Json TestIr::part(int buffer, int p0, int pc, std::int64_t offset, std::int64_t count) const {
    return Json{{"buf", buffer},
                {"part", {p0, pc}},
                {"offset", offset},
                {"pattern", Json::array({Json::array({1, count})})},
                {"dtype", m_doc["buffers"][static_cast<std::size_t>(buffer)]["dtype"]}};
}

TestIr::Json TestIr::hbm(int buffer, std::int64_t offset, std::int64_t rows, std::int64_t cols,
                         std::int64_t stride) const {
    return Json{{"buf", buffer},
                {"offset", offset},
                {"pattern", Json::array({Json::array({stride, rows}), Json::array({1, cols})})},
                {"dtype", m_doc["buffers"][static_cast<std::size_t>(buffer)]["dtype"]}};
}

int TestIr::add(const std::string& op, const std::string& engine, std::vector<Json> dst, std::vector<Json> src,
                Json attrs, int line) {
    const int id = static_cast<int>(m_doc["instructions"].size());
    std::int64_t elements = 0;
    std::int64_t bytes = 0;
    if (!dst.empty()) {
        const Json& d = dst.front();
        const auto& info = m_bufferInfo[d["buf"].get<std::size_t>()];
        std::int64_t n = 1;
        for (const Json& dim : d["pattern"])
            n *= dim[1].get<std::int64_t>();
        if (info.first != "hbm")
            n *= d["part"][1].get<std::int64_t>();
        elements = n;
        bytes = n * info.second;
    }
    Json in{{"id", id},
            {"op", op},
            {"engine", engine},
            {"dst", dst},
            {"src", src},
            {"elements", elements},
            {"bytes", bytes},
            {"attrs", attrs},
            {"loc", Json::array({Json{{"file", 0}, {"line", line > 0 ? line : id + 10}}})},
            {"iter", Json::array()},
            {"pid", {0}}};
    m_doc["instructions"].push_back(in);
    return id;
}

KernelIr TestIr::load() const {
    auto ir = IrLoader::loadString(str());
    EXPECT_TRUE(ir.has_value()) << (ir ? "" : formatError(ir.error()));
    return ir ? std::move(*ir) : KernelIr{};
}

HardwareProfile profile(const std::string& name) {
    auto p = HardwareProfile::loadFile(std::string(KL_SOURCE_DIR) + "/resources/hw/" + name + ".json");
    EXPECT_TRUE(p.has_value()) << (p ? "" : formatError(p.error()));
    return p ? *p : HardwareProfile{};
}

} // namespace kl::sim::test

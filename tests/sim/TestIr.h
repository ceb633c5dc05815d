#pragma once

#include "hw/HardwareProfile.h"
#include "ir/KernelIr.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace kl::sim::test {

/// Builds Kernel IR JSON (docs/kernel-ir.md) by hand, so tests exercise the loader as the front end's
/// output would, without waiting for the front end.
class TestIr {
public:
    using Json = nlohmann::ordered_json;

    TestIr();
    int buffer(const std::string& name, const std::string& memory, std::vector<std::int64_t> shape,
               const std::string& dtype = "bfloat16");
    /// Sets the line of the kernel file that declared `buffer` (1 unless set).
    void declare(int buffer, int line);
    /// A whole-buffer access pattern: all partitions (on-chip) and every free element.
    [[nodiscard]] Json whole(int buffer) const;
    /// An on-chip access of partitions [p0, p0+pc) and free elements [offset, offset+count).
    [[nodiscard]] Json part(int buffer, int p0, int pc, std::int64_t offset, std::int64_t count) const;
    /// An HBM access of `rows` x `cols` elements starting at flat element `offset`, row stride `stride`.
    [[nodiscard]] Json hbm(int buffer, std::int64_t offset, std::int64_t rows, std::int64_t cols,
                           std::int64_t stride) const;
    /// Adds an instruction and returns its index; `elements`/`bytes` are derived from dst[0] when 0.
    int add(const std::string& op, const std::string& engine, std::vector<Json> dst, std::vector<Json> src,
            Json attrs = Json::object(), int line = 0);
    [[nodiscard]] std::string str() const { return m_doc.dump(); }
    [[nodiscard]] KernelIr load() const;

private:
    Json m_doc;
    std::vector<std::pair<std::string, std::int64_t>> m_bufferInfo; ///< memory, dtype bytes
};

/// The bundled profile (resources/hw/NAME.json).
[[nodiscard]] HardwareProfile profile(const std::string& name = "trn1");

} // namespace kl::sim::test

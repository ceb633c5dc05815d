#pragma once

#include "ir/BufferFacts.h"
#include "ir/IrTypes.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kl::sim {

/// A place in a kernel source file; `file` indexes KernelIr::files().
struct SourceLoc {
    std::uint32_t file = 0xffffffffu;
    std::uint32_t line = 0;
};

/// What buffers of one kind share: a tile allocated in a loop body is a new buffer every iteration, with the same
/// name, shape, type and declaration. KernelIr stores each kind once and a buffer as the index of its kind.
struct BufferKind {
    std::uint32_t name = 0;       ///< index into KernelIr's name table
    std::uint32_t shapeBegin = 0; ///< first dimension in KernelIr's shape pool
    SourceLoc decl;
    std::int32_t dtypeBytes = 0;
    Memory memory = Memory::Hbm;
    DType dtype = DType::Unknown;
    BufferRole role = BufferRole::Tile;
    std::uint8_t dims = 0;
};

/// One buffer as the rest of the program reads it (a value; its name and shape point into the KernelIr).
struct BufferView {
    std::string_view name;
    std::span<const std::int64_t> shape;
    Memory memory = Memory::Hbm;
    DType dtype = DType::Unknown;
    BufferRole role = BufferRole::Tile;
    std::int32_t dtypeBytes = 0;
    SourceLoc decl;
    /// Bytes each partition holds (on-chip) or the whole tensor's bytes (HBM).
    [[nodiscard]] std::int64_t bytesPerPartition() const;
    [[nodiscard]] std::int64_t partitions() const;
};

/// The buffers of a KernelIr, read as if they were a vector of BufferView: size, [], range-for.
class BufferTable {
public:
    class Iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = BufferView;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = BufferView;

        Iterator() = default;
        Iterator(const BufferTable* table, std::size_t i) : m_table(table), m_i(i) {}
        BufferView operator*() const { return (*m_table)[m_i]; }
        Iterator& operator++() {
            ++m_i;
            return *this;
        }
        Iterator operator++(int) {
            Iterator old = *this;
            ++m_i;
            return old;
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_i == b.m_i; }

    private:
        const BufferTable* m_table = nullptr;
        std::size_t m_i = 0;
    };

    BufferTable(const std::vector<BufferKind>& kinds, const std::vector<std::string>& names,
                const std::vector<std::int64_t>& shapes, const std::vector<BufferUse>& uses)
        : m_kinds(&kinds), m_names(&names), m_shapes(&shapes), m_uses(&uses) {}

    [[nodiscard]] std::size_t size() const { return m_uses->size(); }
    [[nodiscard]] bool empty() const { return m_uses->empty(); }
    [[nodiscard]] BufferView operator[](std::size_t i) const {
        const BufferKind& k = (*m_kinds)[(*m_uses)[i].kind()];
        return {(*m_names)[k.name],
                {m_shapes->data() + k.shapeBegin, k.dims},
                k.memory,
                k.dtype,
                k.role,
                k.dtypeBytes,
                k.decl};
    }
    [[nodiscard]] Iterator begin() const { return {this, 0}; }
    [[nodiscard]] Iterator end() const { return {this, size()}; }

private:
    const std::vector<BufferKind>* m_kinds;
    const std::vector<std::string>* m_names;
    const std::vector<std::int64_t>* m_shapes;
    const std::vector<BufferUse>* m_uses;
};

} // namespace kl::sim

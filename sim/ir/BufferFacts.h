#pragma once

#include "ir/IrTypes.h"

#include <cstddef>
#include <cstdint>

namespace kl::sim {

inline constexpr std::uint32_t kNoIndex = 0xffffffffu;

/// What the simulator reads about a buffer on every access, as one value (KernelIr::bufferFacts()[i]). It is
/// composed on read from the buffer's kind (sizes and types, KindFacts) and its own uses (BufferUse): a loop that
/// allocates its tiles has about one buffer per instruction, so the per-buffer part is kept to 8 bytes.
struct BufferFacts {
    std::int64_t bytesPerPartition = 0; ///< Buffer::bytesPerPartition()
    std::uint32_t lastUse = kNoIndex;   ///< the last instruction (program order) that reads or writes it
    std::int32_t partitions = 1;        ///< Buffer::partitions(): 1..128 on chip, 1 in HBM
    std::int32_t dtypeBytes = 0;
    Memory memory = Memory::Hbm;
    DType dtype = DType::Unknown;
    bool written = false; ///< some instruction writes it
};

/// The facts every buffer of one kind shares (one per BufferKind, parallel to KernelIr's kinds).
struct KindFacts {
    std::int64_t bytesPerPartition = 0;
    std::int32_t partitions = 1;
    std::int32_t dtypeBytes = 0;
    Memory memory = Memory::Hbm;
    DType dtype = DType::Unknown;
};

/// One buffer: its kind and how the program uses it (8 bytes; "written" is the kind word's top bit, kinds being
/// far fewer than 2^31: at most IrLimits' buffer count).
struct BufferUse {
    std::uint32_t kindAndWritten = 0;
    std::uint32_t lastUse = kNoIndex;
    static constexpr std::uint32_t kWritten = 0x80000000u;
    [[nodiscard]] std::uint32_t kind() const { return kindAndWritten & ~kWritten; }
    [[nodiscard]] bool written() const { return (kindAndWritten & kWritten) != 0; }
    void setWritten() { kindAndWritten |= kWritten; }
};
static_assert(sizeof(BufferUse) == 8);

/// The buffers' facts read as if they were an array of BufferFacts (size, []): a view of a kind table and a use
/// table that outlive it (the KernelIr's, or a simulator's own copy of the uses).
class BufferFactsTable {
public:
    BufferFactsTable() = default;
    BufferFactsTable(const KindFacts* kinds, const BufferUse* uses, std::size_t size)
        : m_kinds(kinds), m_uses(uses), m_size(size) {}

    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }
    [[nodiscard]] BufferFacts operator[](std::size_t i) const {
        const BufferUse u = m_uses[i];
        const KindFacts& k = m_kinds[u.kind()];
        return {k.bytesPerPartition, u.lastUse, k.partitions, k.dtypeBytes, k.memory, k.dtype, u.written()};
    }
    /// Only the memory (the simulator's most frequent question), without composing the rest.
    [[nodiscard]] Memory memory(std::size_t i) const { return m_kinds[m_uses[i].kind()].memory; }

private:
    const KindFacts* m_kinds = nullptr;
    const BufferUse* m_uses = nullptr;
    std::size_t m_size = 0;
};

} // namespace kl::sim

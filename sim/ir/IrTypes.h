#pragma once

#include <cstdint>
#include <string_view>

namespace kl::sim {

/// Where a buffer lives. HBM is off-chip; SBUF and PSUM are the on-chip memories with finite capacity.
enum class Memory : std::uint8_t { Hbm, Sbuf, Psum };

/// The unit an instruction is issued to, as named in the IR `engine` field.
enum class Engine : std::uint8_t { Tensor, Vector, Scalar, GpSimd, Dma, Count };

/// ISA-level operations the front end lowers NKI calls to (docs/kernel-ir.md), one per row of ops.def (the one
/// op table, shared with the front end and the docs). `Unknown` keeps an IR from a newer front end loadable: it
/// is costed like a simple element-wise op and reported in diagnostics.
enum class Op : std::uint8_t {
#define KL_OP(id, ...) id,
#include "frontend/kltrace/ops.def"
    Count
};

/// Element types; `Other` covers dtypes the model has no special cost rule for (costed by byte size).
enum class DType : std::uint8_t {
    Unknown,
    BFloat16,
    Float16,
    Float32,
    Float8E4M3,
    Float8E5M2,
    Int8,
    Int16,
    Int32,
    Uint8,
    Uint16,
    Uint32,
    Bool,
    Other
};

/// The ALU operation of tensor_tensor / tensor_reduce (`op0`/`op1` attrs); only the distinctions the cost
/// model needs are kept.
enum class AluOp : std::uint8_t { None, Add, Subtract, Multiply, Max, Min, Other };

/// The ISA calls the front end records as another op (`attrs.isa`, the COSTED_AS table of
/// sim/frontend/kltrace/isa_more.py) whose documented cost differs from that op's; every other call is `Other`.
enum class IsaCall : std::uint8_t {
    None,
    ScalarTensorTensor,
    TensorCopyPredicated,
    TensorScalarReduce,
    RangeSelect,
    MatmulMx,
    DmaTranspose,
    Other
};

enum class BufferRole : std::uint8_t { Input, Output, Tile, Scratch };

[[nodiscard]] Op parseOp(std::string_view name);
[[nodiscard]] std::string_view opName(Op op);
/// The engine an op runs on unless the kernel chooses another (ops.def).
[[nodiscard]] Engine opDefaultEngine(Op op);
[[nodiscard]] bool parseEngine(std::string_view name, Engine& out);
[[nodiscard]] std::string_view engineName(Engine engine);
/// The name people read: "TensorE", "VectorE", "ScalarE", "GpSimdE", "DMA".
[[nodiscard]] std::string_view engineLabel(Engine engine);
[[nodiscard]] bool parseMemory(std::string_view name, Memory& out);
[[nodiscard]] std::string_view memoryName(Memory memory);
[[nodiscard]] DType parseDType(std::string_view name);
[[nodiscard]] int dtypeBytes(DType dtype);
[[nodiscard]] AluOp parseAluOp(std::string_view name);
[[nodiscard]] IsaCall parseIsaCall(std::string_view name);
[[nodiscard]] BufferRole parseRole(std::string_view name);

} // namespace kl::sim

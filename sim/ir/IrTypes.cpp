#include "ir/IrTypes.h"

#include <array>
#include <utility>

namespace kl::sim {

namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(Op::Count)> kOpNames = {
#define KL_OP(id, name, ...) name,
#include "frontend/kltrace/ops.def"
};

constexpr std::array<Engine, static_cast<std::size_t>(Op::Count)> kOpEngines = {
#define KL_OP(id, name, engine, ...) Engine::engine,
#include "frontend/kltrace/ops.def"
};

constexpr std::array<std::string_view, static_cast<std::size_t>(Engine::Count)> kEngineNames = {
    "tensor", "vector", "scalar", "gpsimd", "dma"};
constexpr std::array<std::string_view, static_cast<std::size_t>(Engine::Count)> kEngineLabels = {
    "TensorE", "VectorE", "ScalarE", "GpSimdE", "DMA"};

} // namespace

Op parseOp(std::string_view name) {
    for (std::size_t i = 0; i + 1 < kOpNames.size(); ++i) {
        if (kOpNames[i] == name) {
            return static_cast<Op>(i);
        }
    }
    return Op::Unknown;
}

std::string_view opName(Op op) {
    return kOpNames[static_cast<std::size_t>(op)];
}

Engine opDefaultEngine(Op op) {
    return kOpEngines[static_cast<std::size_t>(op)];
}

bool parseEngine(std::string_view name, Engine& out) {
    for (std::size_t i = 0; i < kEngineNames.size(); ++i) {
        if (kEngineNames[i] == name) {
            out = static_cast<Engine>(i);
            return true;
        }
    }
    // Older spellings seen in the Neuron docs; accepted so that a front end using them still loads.
    if (name == "pe") {
        out = Engine::Tensor;
        return true;
    }
    if (name == "act") {
        out = Engine::Scalar;
        return true;
    }
    if (name == "pool") {
        out = Engine::GpSimd;
        return true;
    }
    if (name == "dve") {
        out = Engine::Vector;
        return true;
    }
    return false;
}

std::string_view engineName(Engine engine) {
    return kEngineNames[static_cast<std::size_t>(engine)];
}

std::string_view engineLabel(Engine engine) {
    return kEngineLabels[static_cast<std::size_t>(engine)];
}

bool parseMemory(std::string_view name, Memory& out) {
    if (name == "hbm" || name == "shared_hbm" || name == "private_hbm") {
        out = Memory::Hbm;
        return true;
    }
    if (name == "sbuf") {
        out = Memory::Sbuf;
        return true;
    }
    if (name == "psum") {
        out = Memory::Psum;
        return true;
    }
    return false;
}

std::string_view memoryName(Memory memory) {
    switch (memory) {
    case Memory::Hbm: return "hbm";
    case Memory::Sbuf: return "sbuf";
    case Memory::Psum: return "psum";
    }
    return "hbm";
}

DType parseDType(std::string_view name) {
    static constexpr std::pair<std::string_view, DType> kNames[] = {{"bfloat16", DType::BFloat16},
                                                                    {"float16", DType::Float16},
                                                                    {"float32", DType::Float32},
                                                                    {"tfloat32", DType::Float32},
                                                                    {"float8_e4m3", DType::Float8E4M3},
                                                                    {"float8_e5m2", DType::Float8E5M2},
                                                                    {"float8_e4m3fn", DType::Float8E4M3},
                                                                    {"int8", DType::Int8},
                                                                    {"int16", DType::Int16},
                                                                    {"int32", DType::Int32},
                                                                    {"uint8", DType::Uint8},
                                                                    {"uint16", DType::Uint16},
                                                                    {"uint32", DType::Uint32},
                                                                    {"bool", DType::Bool},
                                                                    {"bool_", DType::Bool}};
    for (const auto& [text, dtype] : kNames) {
        if (text == name) {
            return dtype;
        }
    }
    return name.empty() ? DType::Unknown : DType::Other;
}

int dtypeBytes(DType dtype) {
    switch (dtype) {
    case DType::Float32:
    case DType::Int32:
    case DType::Uint32: return 4;
    case DType::BFloat16:
    case DType::Float16:
    case DType::Int16:
    case DType::Uint16: return 2;
    case DType::Float8E4M3:
    case DType::Float8E5M2:
    case DType::Int8:
    case DType::Uint8:
    case DType::Bool: return 1;
    case DType::Unknown:
    case DType::Other: return 0;
    }
    return 0;
}

AluOp parseAluOp(std::string_view name) {
    if (name.empty())
        return AluOp::None;
    if (name == "add")
        return AluOp::Add;
    if (name == "subtract" || name == "sub")
        return AluOp::Subtract;
    if (name == "multiply" || name == "mul")
        return AluOp::Multiply;
    if (name == "max" || name == "maximum")
        return AluOp::Max;
    if (name == "min" || name == "minimum")
        return AluOp::Min;
    return AluOp::Other;
}

IsaCall parseIsaCall(std::string_view name) {
    if (name.empty())
        return IsaCall::None;
    if (name == "scalar_tensor_tensor")
        return IsaCall::ScalarTensorTensor;
    if (name == "tensor_copy_predicated")
        return IsaCall::TensorCopyPredicated;
    if (name == "tensor_scalar_reduce")
        return IsaCall::TensorScalarReduce;
    if (name == "range_select")
        return IsaCall::RangeSelect;
    if (name == "nc_matmul_mx")
        return IsaCall::MatmulMx;
    if (name == "dma_transpose")
        return IsaCall::DmaTranspose;
    return IsaCall::Other;
}

BufferRole parseRole(std::string_view name) {
    if (name == "input")
        return BufferRole::Input;
    if (name == "output")
        return BufferRole::Output;
    if (name == "scratch")
        return BufferRole::Scratch;
    return BufferRole::Tile;
}

} // namespace kl::sim

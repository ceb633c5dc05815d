#pragma once

#include "engine/SimTypes.h"
#include "ir/IrTypes.h"
#include "ir/KernelIr.h"

#include <cstdint>
#include <span>

namespace kl::sim {

/// One instruction has been scheduled. `index` is its position in program order.
struct InstructionEvent {
    std::uint32_t index = 0;
    std::uint32_t waitOn = kNoIndex; ///< program-order index of the instruction waited on (Dependency)
    TimePs start = 0;
    TimePs end = 0;
    TimePs mainStart = 0; ///< start on `lane` (for a matmul the MultiplyMoving start; else == start)
    TimePs lsStart = -1;  ///< LoadStationary part of a matmul, -1 otherwise
    TimePs lsEnd = -1;
    TimePs stall = 0; ///< time the cause cost: unit idle (dependency/capacity) or instruction held (engine/queue)
    double flops = 0; ///< matmul FLOPs (2 x contraction x stationary x moving)
    std::int64_t dmaBytes = 0;
    std::uint16_t lane = 0;
    Op op = Op::Unknown;
    Engine engine = Engine::Vector;
    WaitCause cause = WaitCause::None;
};

/// A tile took (delta > 0) or gave back (delta < 0) room in SBUF or PSUM at `time`.
struct MemoryEvent {
    TimePs time = 0;
    std::int64_t partitionBytes = 0; ///< per-partition reservation change (what capacity is counted in)
    std::int64_t bytes = 0;          ///< whole-tile bytes change (partitions x per-partition bytes)
    std::uint32_t buffer = kNoIndex;
    std::uint16_t lane = 0; ///< the lane of the instruction that opened (allocation) or released (free) the tile
    Memory memory = Memory::Sbuf;
    bool overflow = false; ///< did not fit even after every possible spill (the instruction's own tiles overflow)
    bool reload = false;   ///< a spilled tile coming back from HBM (not a new tile)
};

/// A stretch of a DMA transfer at a constant data rate (bytes per ns), from the bandwidth calendar.
struct DmaRateSegment {
    TimePs start = 0;
    TimePs end = 0;
    double bytesPerNs = 0;
};

/// The aggregate DMA data rate over [start, end), final once emitted. Emitted in time order, gap-free
/// from time 0 to the end of the last transfer.
struct DmaBandwidthEvent {
    TimePs start = 0;
    TimePs end = 0;
    double bytesPerNs = 0;
};

/// A DMA transfer: queued at `start`, moving data from `dataStart` (after the fixed latency) to `end`.
/// For a spill or reload, `index` is the instruction whose tiles needed the room (spill) or the tile (reload),
/// and `buffer` the tile moved.
struct DmaTransferEvent {
    std::uint32_t index = 0;
    std::uint32_t buffer = kNoIndex;
    DmaKind kind = DmaKind::Program;
    Memory memory = Memory::Hbm; ///< the on-chip memory a spill or reload moves a tile out of or into
    std::uint32_t queue = 0;
    std::uint16_t lane = 0; ///< the timeline lane of `queue` (with LNC 2, core 1's queues follow its engines)
    TimePs start = 0;
    TimePs dataStart = 0;
    TimePs end = 0;
    std::int64_t bytes = 0;
    double efficiency = 1;
    bool touchesHbm = false;
    std::span<const DmaRateSegment> segments; ///< how its data moved; valid during the callback only
};

} // namespace kl::sim

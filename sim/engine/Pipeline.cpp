#include "engine/Pipeline.h"

#include "common/Try.h"
#include "hw/ProfileFields.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kl::sim {

namespace {

std::uint16_t computeLane(Engine engine) {
    switch (engine) {
    case Engine::Tensor: return static_cast<std::uint16_t>(Lane::MultiplyMoving);
    case Engine::Scalar: return static_cast<std::uint16_t>(Lane::Scalar);
    case Engine::GpSimd: return static_cast<std::uint16_t>(Lane::GpSimd);
    default: return static_cast<std::uint16_t>(Lane::Vector);
    }
}

bool isMatmul(const Instruction& in) {
    return in.op == Op::NcMatmul && in.engine == Engine::Tensor;
}

/// A profile byte size as an integer; checkProfile refuses a run whose sizes are out of range.
std::int64_t partitionBytes(double bytes) {
    return clampToInt(bytes, 0, static_cast<std::int64_t>(kMaxPartitionBytes));
}

} // namespace

Pipeline::Pipeline(const HardwareProfile& hw)
    : m_hw(hw), m_cost(hw), m_dma(hw), m_sbuf(partitionBytes(hw.sbuf.partitionBytes)),
      m_psum(partitionBytes(hw.psum.partitionBytes)), m_parked{{},
                                                               0,
                                                               MemoryUnit(partitionBytes(hw.sbuf.partitionBytes)),
                                                               MemoryUnit(partitionBytes(hw.psum.partitionBytes)),
                                                               {}} {}

Expected<void> Pipeline::prepare(const KernelIr& ir) {
    const BufferFactsTable facts = ir.bufferFacts();
    m_slots.clear();
    m_freeSlots.clear();
    m_slotOf.assign(facts.size(), kNoIndex);
    m_deps.reset(facts.size());
    m_spills.reset(facts.size());
    m_facts = facts;
    m_ownUses.clear();
    m_bankBytes = partitionBytes(m_hw.psum.bankBytes);
    m_laneLastUse[static_cast<std::size_t>(Lane::LoadStationary)] = ir.lastMatmul();
    m_laneLastUse[static_cast<std::size_t>(Lane::MultiplyMoving)] = ir.lastOn(Engine::Tensor);
    m_laneLastUse[static_cast<std::size_t>(Lane::Vector)] = ir.lastOn(Engine::Vector);
    m_laneLastUse[static_cast<std::size_t>(Lane::Scalar)] = ir.lastOn(Engine::Scalar);
    m_laneLastUse[static_cast<std::size_t>(Lane::GpSimd)] = ir.lastOn(Engine::GpSimd);
    m_laneLastUse[kComputeLanes] = ir.lastOn(Engine::Dma);
    if (!ir.hasForwardBufferRefs()) {
        return {};
    }
    // Some operand named a buffer that did not exist yet when its instruction was added: work the uses
    // out here, and refuse an operand whose buffer never came.
    m_ownUses = ir.bufferUses();
    m_facts = BufferFactsTable(ir.kindFacts().data(), m_ownUses.data(), m_ownUses.size());
    const auto& instrs = ir.instructions();
    for (std::uint32_t i = 0; i < instrs.size(); ++i) {
        const Instruction& in = instrs[i];
        const auto dsts = ir.dsts(in);
        for (const auto ops : {dsts, ir.srcs(in)}) {
            for (const AccessPattern& ap : ops) {
                if (ap.buffer >= facts.size()) {
                    return makeError(ErrorCode::Parse,
                                     fmt::format("instruction #{} (id {}) refers to buffer {}, which does not exist", i,
                                                 ir.id(i), ap.buffer));
                }
                m_ownUses[ap.buffer].lastUse = i;
            }
        }
        for (const AccessPattern& ap : dsts) {
            m_ownUses[ap.buffer].setWritten();
        }
    }
    return {};
}

Expected<void> Pipeline::prepareCores(const KernelIr& ir) {
    m_lnc = ir.lnc;
    m_core = 0;
    m_laneBase = 0;
    m_dmaLaneShift = 0;
    m_parkedLast = kNoIndex;
    if (m_lnc == 1) {
        return {};
    }
    if (m_lnc != 2) {
        return makeError(ErrorCode::Parse, fmt::format("kernel.lnc is {}: a logical NeuronCore groups 1 or 2 "
                                                       "physical cores",
                                                       m_lnc));
    }
    if (m_hw.maxLnc < m_lnc) {
        return makeError(ErrorCode::Unsupported,
                         fmt::format("the kernel runs on a logical NeuronCore of {} cores (--lnc {}), but {} has "
                                     "no logical NeuronCores (cores.max_lnc {})",
                                     m_lnc, m_lnc, m_hw.name, m_hw.maxLnc),
                         {}, 0, "simulate it on trn2 or trn3 (--hw trn2), or trace it with --lnc 1");
    }
    m_grid0 = ir.grid.empty() ? 1 : std::max<std::int64_t>(ir.grid.front(), 1);
    m_parked.laneFree = {};
    m_parked.mmPrevStart = 0;
    m_parked.sbuf = MemoryUnit(partitionBytes(m_hw.sbuf.partitionBytes));
    m_parked.psum = MemoryUnit(partitionBytes(m_hw.psum.partitionBytes));
    m_parked.spills.reset(m_slotOf.size());
    m_lastOfCore = {kNoIndex, kNoIndex};
    const auto& instrs = ir.instructions();
    for (std::uint32_t i = 0; i < instrs.size(); ++i) {
        m_lastOfCore[coreOf(ir, instrs[i])] = i;
    }
    m_parkedLast = m_lastOfCore[1];
    m_dma.configureCores(static_cast<std::uint32_t>(m_lnc));
    return {};
}

std::uint32_t Pipeline::coreOf(const KernelIr& ir, const Instruction& in) const {
    const auto pid = ir.pid(in);
    const std::int64_t first = pid.empty() ? 0 : std::clamp<std::int64_t>(pid.front(), 0, m_grid0 - 1);
    return static_cast<std::uint32_t>(first * m_lnc / m_grid0);
}

void Pipeline::switchCore(std::uint32_t core) {
    std::swap(m_laneFree, m_parked.laneFree);
    std::swap(m_mmPrevStart, m_parked.mmPrevStart);
    std::swap(m_sbuf, m_parked.sbuf);
    std::swap(m_psum, m_parked.psum);
    std::swap(m_spills, m_parked.spills);
    m_parkedLast = m_lastOfCore[m_core];
    m_core = core;
    m_laneBase = static_cast<std::uint16_t>(core * (kComputeLanes + m_dma.coreQueueCount()));
    m_dmaLaneShift = static_cast<std::uint16_t>(core * kComputeLanes);
    m_dma.selectCore(core);
}

Expected<void> Pipeline::run(const KernelIr& ir) {
    KL_TRY(checkProfile(m_hw, m_hw.name));
    KL_TRY(prepare(ir));
    m_batchSize = 0;
    m_memoryBatchSize = 0;
    m_pastLimit = false;
    m_dmaBytesTotal = 0;
    m_onChipBytesTotal = 0;
    m_mark = 0;
    m_markSent = 0;
    KL_TRY(prepareCores(ir));
    for (SimListener* l : m_listeners) {
        l->onStart(ir, m_hw);
    }
    const auto& instrs = ir.instructions();
    for (std::uint32_t i = 0; i < instrs.size(); ++i) {
        if ((i & 63u) == 0) {
            advanceWatermark(i);
        }
        const Instruction& in = instrs[i];
        if (m_lnc > 1) [[unlikely]] {
            if (const std::uint32_t core = coreOf(ir, in); core != m_core) {
                switchCore(core);
                m_dma.setOthersLive(m_parkedLast != kNoIndex && m_parkedLast > i);
            }
        }
        beginInstruction(ir, in);
        if (in.engine == Engine::Dma) {
            scheduleDma(ir, i);
        } else if (isMatmul(in)) {
            scheduleMatmul(ir, i);
        } else {
            scheduleCompute(ir, i);
        }
        if (m_pastLimit) [[unlikely]] {
            return pastLimitError(ir, i);
        }
    }
    flushInstructions();
    flushMemoryBatch();
    emitDmaBandwidth(true);
    return {};
}

Expected<void> Pipeline::pastLimitError(const KernelIr& ir, std::uint32_t index) const {
    const Instruction& in = ir.instructions()[index];
    const std::string what =
        m_dmaBytesTotal > kMaxTotalBytes
            ? std::string("the DMA transfers so far move more than 2^62 bytes")
            : (m_onChipBytesTotal > kMaxTotalBytes ? std::string("the tiles allocated so far hold more than 2^62 bytes")
                                                   : std::string("it ends after 2^61 ps (about 27 days) of simulated "
                                                                 "time"));
    return makeError(
        ErrorCode::Unsupported,
        fmt::format("simulation stopped at instruction #{} (id {}, {}): {}", index, ir.id(index), opName(in.op), what),
        {}, 0,
        "the hardware profile (clocks, bandwidths, latencies) or the Kernel IR (elements, bytes) holds "
        "numbers far outside real hardware");
}

void Pipeline::advanceWatermark(std::uint32_t index) {
    // No later instruction can start before the free time of a lane it will use, so memory history
    // before the earliest such time can be folded.
    TimePs mark = -1;
    for (std::size_t lane = 0; lane < kComputeLanes; ++lane) {
        if (m_laneLastUse[lane] != kNoIndex && m_laneLastUse[lane] >= index) {
            mark = mark < 0 ? m_laneFree[lane] : std::min(mark, m_laneFree[lane]);
        }
    }
    if (m_laneLastUse[kComputeLanes] != kNoIndex && m_laneLastUse[kComputeLanes] >= index) {
        const TimePs q = m_dma.earliestQueueFree();
        mark = mark < 0 ? q : std::min(mark, q);
    }
    if (m_lnc > 1 && m_parkedLast != kNoIndex && m_parkedLast >= index) [[unlikely]] {
        for (const TimePs free : m_parked.laneFree) { // the other core may still run: no lane of it is ahead
            mark = mark < 0 ? free : std::min(mark, free);
        }
    }
    if (mark > 0) {
        m_sbuf.advance(mark);
        m_psum.advance(mark);
        if (m_lnc > 1) [[unlikely]] {
            m_parked.sbuf.advance(mark);
            m_parked.psum.advance(mark);
        }
        m_mark = std::max(m_mark, mark);
    }
}

void Pipeline::beginInstruction(const KernelIr& ir, const Instruction& in) {
    // Every operand is queried and then recorded: compute each region once, up front. An instruction's operand
    // indices are contiguous (dsts then srcs), so an index's place gives its slot.
    const OperandList ops = ir.operands(in);
    m_operandBase = ops.indexData();
    const std::size_t count = ops.size();
    if (m_regions.size() < count) {
        m_regions.resize(count);
    }
    for (std::size_t k = 0; k < count; ++k) {
        const AccessPattern& ap = ops[k];
        const BufferFacts& f = m_facts[ap.buffer];
        if (k < in.dstCount || f.written) { // the others are not tracked (see recordAccesses)
            m_regions[k] = regionOf(ir, ap, f.dtypeBytes, f.memory == Memory::Hbm);
        }
    }
}

void Pipeline::queryDeps(OperandList ops, bool isWrite, DependencyTracker::Ready& ready) {
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const AccessPattern& ap = ops[k];
        if (isWrite || m_facts[ap.buffer].written) {
            m_deps.query(ap.buffer, region(ops, k), isWrite, ready);
        }
    }
}

void Pipeline::recordAccesses(OperandList ops, bool isWrite, TimePs end, std::uint32_t index) {
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const AccessPattern& ap = ops[k];
        // Reads of a buffer nothing writes (a kernel input) can never order anything: no write will ask
        // about them (WAR) and there is no write for them to wait on (RAW). Not tracking them keeps the
        // lists of big input tensors, read by every load, empty.
        if (isWrite || m_facts[ap.buffer].written) {
            m_deps.record(ap.buffer, region(ops, k), isWrite, end, index);
        }
    }
}

Pipeline::BufferState& Pipeline::takeSlot(std::uint32_t buffer) {
    std::uint32_t slot = 0;
    if (m_freeSlots.empty()) {
        slot = static_cast<std::uint32_t>(m_slots.size());
        m_slots.emplace_back();
    } else {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    m_slotOf[buffer] = slot;
    m_slots[slot] = {};
    return m_slots[slot];
}

TimePs Pipeline::allocate(const KernelIr& ir, const Instruction& in, std::uint32_t index, TimePs notBefore,
                          WaitCause& capCause) {
    m_newlyOpened.clear();
    TimePs t = notBefore;
    for (const auto ops : {ir.dsts(in), ir.srcs(in)}) {
        for (const AccessPattern& ap : ops) {
            const std::uint8_t state = stateOf(ap.buffer);
            if (state != kUnallocated) {
                if (state == kSpilled) [[unlikely]] {
                    if (const TimePs back = reload(ir, in, ap.buffer, index); back > t) {
                        t = back;
                        capCause = WaitCause::Spill;
                    }
                }
                continue;
            }
            const BufferFacts& f = m_facts[ap.buffer];
            const Memory mem = f.memory;
            if (mem == Memory::Hbm) {
                continue;
            }
            const std::int64_t bytes = reserved(f);
            bool spilled = false;
            MemoryUnit::Fit fit = unitOf(mem).earliestFit(bytes, t);
            if (fit.overflow) [[unlikely]] {
                fit = makeRoom(ir, in, index, mem, bytes, t, spilled);
            }
            if (fit.time > t) {
                t = fit.time;
                capCause = spilled ? WaitCause::Spill
                                   : (mem == Memory::Sbuf ? WaitCause::SbufCapacity : WaitCause::PsumCapacity);
            }
            unitOf(mem).open(bytes);
            if (m_spills.tracking()) [[unlikely]] {
                m_spills.resident(ap.buffer, mem);
            }
            BufferState& st = takeSlot(ap.buffer);
            st.lastEnd = 0;
            // Overflow is marked by a negative allocStart until commit; the flag travels in the event.
            st.allocStart = fit.overflow ? -1 : 0;
            m_newlyOpened.push_back(ap.buffer);
        }
    }
    return t;
}

MemoryUnit::Fit Pipeline::makeRoom(const KernelIr& ir, const Instruction& in, std::uint32_t index, Memory memory,
                                   std::int64_t bytes, TimePs notBefore, bool& spilled) {
    MemoryUnit& unit = unitOf(memory);
    MemoryUnit::Fit fit = unit.earliestFit(bytes, notBefore);
    if (fit.overflow && ownBytes(ir, in, memory) + bytes > unit.capacity()) {
        return fit; // the instruction's own tiles cannot fit whatever leaves: spilling the others would not help
    }
    if (fit.overflow && !m_spills.tracking()) {
        // The first spill of the run: from now on the policy follows the resident tiles itself.
        std::vector<std::pair<std::uint32_t, Memory>> open;
        for (std::uint32_t b = 0; b < m_slotOf.size(); ++b) {
            if (stateOf(b) == kOpen && m_facts[b].memory != Memory::Hbm) {
                open.emplace_back(b, m_facts[b].memory);
            }
        }
        m_spills.track(open);
    }
    while (fit.overflow) {
        const std::uint32_t victim = m_spills.victim(ir, in, index, memory);
        if (victim == kNoIndex) {
            break; // the instruction's own tiles do not fit: placed anyway and reported as an overflow
        }
        spillOut(victim, index);
        spilled = true;
        fit = unit.earliestFit(bytes, notBefore);
    }
    return fit;
}

std::int64_t Pipeline::ownBytes(const KernelIr& ir, const Instruction& in, Memory memory) const {
    std::int64_t sum = 0;
    const OperandList ops = ir.operands(in);
    const std::size_t count = ops.size();
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t b = ops[k].buffer;
        bool seen = false;
        for (std::size_t j = 0; j < k && !seen; ++j) {
            seen = ops[j].buffer == b;
        }
        if (!seen && stateOf(b) == kOpen && m_facts[b].memory == memory) {
            sum += reserved(m_facts[b]);
        }
    }
    return sum;
}

DmaUnit::Transfer Pipeline::tileTransfer(DmaKind kind, std::uint32_t buffer, std::uint32_t index, TimePs notBefore,
                                         TimePs& start, std::uint32_t& queue) {
    const BufferFacts& f = m_facts[buffer];
    queue = m_dma.nextQueue();
    // Never before the watermark already given to the listeners: no event may be earlier than it.
    start = std::max({notBefore, m_dma.queueFree(queue), m_mark});
    const std::int64_t partitions = std::max<std::int64_t>(f.partitions, 1);
    const std::int64_t bytes = f.bytesPerPartition * partitions; // the data, not the bank-rounded reservation
    const DmaUnit::Transfer t = m_dma.issue(start, bytes, static_cast<double>(f.bytesPerPartition), partitions);
    m_dmaBytesTotal += bytes;
    m_pastLimit |= m_dmaBytesTotal > kMaxTotalBytes || t.end >= kMaxTimePs;
    DmaTransferEvent d;
    d.index = index;
    d.buffer = buffer;
    d.kind = kind;
    d.memory = f.memory;
    d.queue = queue;
    d.lane = queueLane(queue);
    d.start = start;
    d.dataStart = t.dataStart;
    d.end = t.end;
    d.bytes = bytes;
    d.efficiency = t.efficiency;
    d.touchesHbm = true;
    d.segments = t.segments;
    for (SimListener* l : m_listeners) {
        l->onDmaTransfer(d);
    }
    return t;
}

void Pipeline::spillOut(std::uint32_t buffer, std::uint32_t index) {
    BufferState& st = slotOf(buffer);
    const BufferFacts& f = m_facts[buffer];
    TimePs start = 0;
    std::uint32_t queue = 0;
    // Every access scheduled so far ends by lastEnd: the data is final then.
    const DmaUnit::Transfer t = tileTransfer(DmaKind::Spill, buffer, index, st.lastEnd, start, queue);
    const std::int64_t bytes = reserved(f);
    unitOf(f.memory).close(bytes, st.allocStart, t.end);
    m_spills.evicted(buffer, f.memory);
    st.spilled = true;
    st.lastEnd = t.end; // the reload reads what this wrote
    MemoryEvent e;
    e.time = t.end;
    e.buffer = buffer;
    e.lane = queueLane(queue);
    e.memory = f.memory;
    e.partitionBytes = -bytes;
    e.bytes = -bytes * f.partitions;
    emitMemory(e);
}

TimePs Pipeline::reload(const KernelIr& ir, const Instruction& in, std::uint32_t buffer, std::uint32_t index) {
    BufferState& st = slotOf(buffer);
    const BufferFacts& f = m_facts[buffer];
    const std::int64_t bytes = reserved(f);
    bool spilled = false;
    // As early as room allows after the spill ended: the compiler hoists a reload ahead of its use.
    const MemoryUnit::Fit fit = makeRoom(ir, in, index, f.memory, bytes, std::max(st.lastEnd, m_mark), spilled);
    unitOf(f.memory).open(bytes);
    m_spills.resident(buffer, f.memory);
    TimePs start = 0;
    std::uint32_t queue = 0;
    const DmaUnit::Transfer t = tileTransfer(DmaKind::Reload, buffer, index, fit.time, start, queue);
    st.spilled = false;
    st.allocStart = start;
    st.lastEnd = t.end;
    // Later users in program order wait for the data as for a write of the whole tile.
    const Region whole{0, std::max<std::int64_t>(f.bytesPerPartition, 1), 0,
                       static_cast<std::uint16_t>(std::max<std::int64_t>(f.partitions, 1))};
    m_deps.record(buffer, whole, true, t.end, index);
    MemoryEvent e;
    e.time = start;
    e.lane = queueLane(queue);
    e.buffer = buffer;
    e.memory = f.memory;
    e.partitionBytes = bytes;
    e.bytes = bytes * f.partitions;
    e.overflow = fit.overflow;
    e.reload = true;
    m_onChipBytesTotal += e.bytes;
    m_pastLimit |= m_onChipBytesTotal > kMaxTotalBytes;
    emitMemory(e);
    return t.end;
}

void Pipeline::commitAllocations(TimePs start, std::uint16_t lane) {
    for (const std::uint32_t b : m_newlyOpened) {
        BufferState& st = slotOf(b);
        const BufferFacts& f = m_facts[b];
        const bool overflow = st.allocStart < 0;
        st.allocStart = start;
        MemoryEvent e;
        e.time = start;
        e.lane = lane;
        e.buffer = b;
        e.memory = f.memory;
        e.partitionBytes = reserved(f);
        e.bytes = e.partitionBytes * f.partitions;
        e.overflow = overflow;
        m_onChipBytesTotal += e.bytes;
        m_pastLimit |= m_onChipBytesTotal > kMaxTotalBytes;
        emitMemory(e);
    }
}

void Pipeline::releaseFinished(const KernelIr& ir, const Instruction& in, std::uint32_t index, TimePs end,
                               std::uint16_t lane) {
    for (const auto ops : {ir.dsts(in), ir.srcs(in)}) {
        for (const AccessPattern& ap : ops) {
            const std::uint8_t state = stateOf(ap.buffer);
            // Only open and spilled tiles have a state: HBM buffers stay unallocated, and a freed tile's last end
            // is never read again.
            if (state != kOpen && state != kSpilled) {
                continue;
            }
            BufferState& st = slotOf(ap.buffer);
            st.lastEnd = std::max(st.lastEnd, end);
            const BufferFacts& f = m_facts[ap.buffer];
            if (f.lastUse != index || state != kOpen || f.memory == Memory::Hbm) {
                continue;
            }
            releaseSlot(ap.buffer);
            if (m_spills.tracking()) [[unlikely]] {
                m_spills.evicted(ap.buffer, f.memory);
            }
            const std::int64_t bytes = reserved(f);
            (f.memory == Memory::Sbuf ? m_sbuf : m_psum).close(bytes, st.allocStart, st.lastEnd);
            m_deps.release(ap.buffer);
            MemoryEvent e;
            e.time = st.lastEnd;
            e.buffer = ap.buffer;
            e.lane = lane;
            e.memory = f.memory;
            e.partitionBytes = -bytes;
            e.bytes = -bytes * f.partitions;
            emitMemory(e);
        }
    }
}

Pipeline::Placement Pipeline::place(const Constraint& c, TimePs start, WaitCause capCause, WaitCause unitCause) {
    Placement p;
    p.start = start;
    const TimePs ready = std::max(c.unitFree, c.dep.time);
    if (start > ready) {
        p.cause = capCause;
        p.stall = start - ready;
    } else if (c.dep.instr != kNoIndex && c.dep.time >= c.unitFree && c.dep.time > 0) {
        p.cause = WaitCause::Dependency;
        p.waitOn = c.dep.instr;
        p.stall = c.dep.time - c.unitFree;
    } else if (c.unitFree > 0) {
        p.cause = unitCause;
        p.stall = c.unitFree - c.dep.time;
    }
    return p;
}

void Pipeline::scheduleCompute(const KernelIr& ir, std::uint32_t index) {
    const Instruction& in = ir.instructions()[index];
    const std::uint16_t lane = computeLane(in.engine);
    Constraint c;
    c.unitFree = m_laneFree[lane];
    queryDeps(ir.srcs(in), false, c.dep);
    queryDeps(ir.dsts(in), true, c.dep);
    WaitCause capCause = WaitCause::None;
    const TimePs start = allocate(ir, in, index, std::max(c.unitFree, c.dep.time), capCause);
    const Placement p = place(c, start, capCause, WaitCause::Engine);
    double cycles = m_cost.cycles(ir, in);
    // TensorE ops are pipelined through the array (the documented interval already is the issue rate);
    // the other engines pay the per-instruction SBUF/PSUM access cost.
    if (in.engine != Engine::Tensor) {
        cycles += m_hw.costs.accessOverhead;
    }
    if (p.cause == WaitCause::Dependency) {
        cycles += m_hw.costs.staticOverhead; // semaphore wait + restart after a dependent hand-off
    }
    const TimePs end = start + m_cost.toPs(cycles, in.engine);
    m_laneFree[lane] = end;
    commitAllocations(start, coreLane(lane));
    recordAccesses(ir.srcs(in), false, end, index);
    recordAccesses(ir.dsts(in), true, end, index);
    InstructionEvent e;
    e.index = index;
    e.start = start;
    e.mainStart = start;
    e.end = end;
    e.lane = coreLane(lane);
    e.op = in.op;
    e.engine = in.engine;
    e.cause = p.cause;
    e.waitOn = p.waitOn;
    e.stall = p.stall;
    emit(e);
    releaseFinished(ir, in, index, end, coreLane(lane));
}

void Pipeline::scheduleMatmul(const KernelIr& ir, std::uint32_t index) {
    const Instruction& in = ir.instructions()[index];
    const auto src = ir.srcs(in);
    const CostModel::MatmulCycles mc = m_cost.matmul(ir, in);
    constexpr auto ls = static_cast<std::size_t>(Lane::LoadStationary);
    constexpr auto mm = static_cast<std::size_t>(Lane::MultiplyMoving);

    // LoadStationary: may preload while the previous MultiplyMoving runs (the array double-buffers weights).
    Constraint cl;
    cl.unitFree = std::max(m_laneFree[ls], m_mmPrevStart);
    TimePs weightsBack = 0; // a spilled stationary tile must be back before LoadStationary reads it
    if (!src.empty()) {
        queryDeps(src.first(1), false, cl.dep);
        if (m_spills.tracking() && stateOf(src[0].buffer) == kSpilled) [[unlikely]] {
            weightsBack = reload(ir, in, src[0].buffer, index);
        }
    }
    const TimePs lsStart = std::max(std::max(cl.unitFree, cl.dep.time), weightsBack);
    const TimePs lsEnd = lsStart + m_cost.toPs(mc.loadStationary, Engine::Tensor);

    Constraint cm;
    cm.unitFree = m_laneFree[mm];
    if (src.size() > 1) {
        queryDeps(src.subspan(1), false, cm.dep);
    }
    queryDeps(ir.dsts(in), true, cm.dep);
    WaitCause capCause = WaitCause::None;
    const TimePs mmReady = std::max({cm.unitFree, cm.dep.time, lsEnd});
    const TimePs mmStart = allocate(ir, in, index, mmReady, capCause);
    Placement p;
    if (lsEnd > std::max(cm.unitFree, cm.dep.time) && mmStart == mmReady) {
        // The weights were the last thing ready: report why the LoadStationary started when it did.
        p = place(cl, lsStart, WaitCause::Spill, WaitCause::Engine);
        p.start = mmStart;
    } else {
        Constraint merged = cm;
        merged.unitFree = std::max(cm.unitFree, lsEnd);
        p = place(merged, mmStart, capCause, WaitCause::Engine);
    }
    double cycles = mc.multiplyMoving;
    if (p.cause == WaitCause::Dependency) {
        cycles += m_hw.costs.staticOverhead;
    }
    const TimePs mmEnd = mmStart + m_cost.toPs(cycles, Engine::Tensor);
    m_laneFree[ls] = lsEnd;
    m_laneFree[mm] = mmEnd;
    m_mmPrevStart = mmStart;
    commitAllocations(mmStart, coreLane(static_cast<std::uint16_t>(Lane::MultiplyMoving)));
    if (!src.empty()) {
        recordAccesses(src.first(1), false, lsEnd, index);
        recordAccesses(src.subspan(1), false, mmEnd, index);
    }
    recordAccesses(ir.dsts(in), true, mmEnd, index);
    InstructionEvent e;
    e.index = index;
    e.start = lsStart;
    e.end = mmEnd;
    e.lsStart = lsStart;
    e.lsEnd = lsEnd;
    e.mainStart = mmStart;
    e.lane = coreLane(static_cast<std::uint16_t>(Lane::MultiplyMoving));
    e.op = in.op;
    e.engine = in.engine;
    e.cause = p.cause;
    e.waitOn = p.waitOn;
    e.stall = p.stall;
    e.flops = mc.flops;
    emit(e);
    releaseFinished(ir, in, index, mmEnd, coreLane(static_cast<std::uint16_t>(Lane::MultiplyMoving)));
}

void Pipeline::scheduleDma(const KernelIr& ir, std::uint32_t index) {
    const Instruction& in = ir.instructions()[index];
    Constraint c;
    queryDeps(ir.srcs(in), false, c.dep);
    queryDeps(ir.dsts(in), true, c.dep);
    WaitCause capCause = WaitCause::None;
    // Room first: a spill or reload it causes takes a queue, so the transfer's own queue is known only after.
    const TimePs roomAt = allocate(ir, in, index, c.dep.time, capCause);
    const std::uint32_t queue = m_dma.nextQueue();
    c.unitFree = m_dma.queueFree(queue);
    const TimePs start = std::max(roomAt, c.unitFree);
    const Placement p = place(c, start, capCause, WaitCause::DmaQueue);

    // Bytes per partition: the on-chip side's partitions, else the first (partition-spread) HBM dimension.
    std::int64_t partitions = 0;
    bool touchesHbm = false;
    for (const auto ops : {ir.dsts(in), ir.srcs(in)}) {
        for (const AccessPattern& ap : ops) {
            if (m_facts[ap.buffer].memory == Memory::Hbm) {
                touchesHbm = true;
                const auto dims = ir.pattern(ap);
                if (partitions == 0 && !dims.empty() && dims.size() > 1) {
                    partitions = -dims.front().count; // provisional: an on-chip operand takes precedence
                }
            } else if (partitions <= 0) {
                partitions = ap.partCount;
            }
        }
    }
    partitions = std::max<std::int64_t>(std::abs(partitions), 1);
    std::int64_t bytes = in.bytes;
    if (bytes <= 0 && !ir.dsts(in).empty()) {
        const AccessPattern& d = ir.dsts(in).front();
        const BufferFacts& b = m_facts[d.buffer]; // not ir.buffers(): a cache miss per transfer
        const int eb = d.dtype != DType::Unknown ? dtypeBytes(d.dtype) : b.dtypeBytes;
        bytes = elementCount(ir, d) * (b.memory == Memory::Hbm ? 1 : d.partCount) * std::max(eb, 1);
    }
    const double bytesPerPartition = static_cast<double>(bytes) / static_cast<double>(partitions);
    const DmaUnit::Transfer t =
        m_dma.issue(start, bytes, bytesPerPartition, partitions, m_cost.dmaEfficiencyScale(ir, in));
    m_dmaBytesTotal += bytes;
    m_pastLimit |= m_dmaBytesTotal > kMaxTotalBytes;
    commitAllocations(start, queueLane(queue));
    recordAccesses(ir.srcs(in), false, t.end, index);
    recordAccesses(ir.dsts(in), true, t.end, index);

    DmaTransferEvent d;
    d.index = index;
    d.queue = queue;
    d.lane = queueLane(queue);
    d.start = start;
    d.dataStart = t.dataStart;
    d.end = t.end;
    d.bytes = bytes;
    d.efficiency = t.efficiency;
    d.touchesHbm = touchesHbm;
    d.segments = t.segments;
    for (SimListener* l : m_listeners) {
        l->onDmaTransfer(d);
    }
    InstructionEvent e;
    e.index = index;
    e.start = start;
    e.mainStart = start;
    e.end = t.end;
    e.lane = queueLane(queue);
    e.op = in.op;
    e.engine = in.engine;
    e.cause = p.cause;
    e.waitOn = p.waitOn;
    e.stall = p.stall;
    e.dmaBytes = bytes;
    emit(e);
    releaseFinished(ir, in, index, t.end, queueLane(queue));
}

void Pipeline::emitDmaBandwidth(bool all) {
    const std::span<const DmaBandwidthEvent> pieces = m_dma.takeFinal(all);
    if (pieces.empty()) {
        return;
    }
    for (SimListener* l : m_listeners) {
        l->onDmaBandwidths(pieces);
    }
}

void Pipeline::emit(const InstructionEvent& e) {
    // Every instruction passes here: the one place its end is checked against the limit (no branch).
    m_pastLimit |= e.end >= kMaxTimePs;
    m_batch[m_batchSize++] = e;
    if (m_batchSize == kBatch) {
        flushInstructions();
    }
}

void Pipeline::emitMemory(const MemoryEvent& e) {
    m_memoryBatch[m_memoryBatchSize++] = e;
    if (m_memoryBatchSize == kBatch) {
        flushMemoryBatch();
    }
}

void Pipeline::flushMemoryBatch() {
    if (m_memoryBatchSize == 0) {
        return;
    }
    const std::span<const MemoryEvent> batch(m_memoryBatch.data(), m_memoryBatchSize);
    for (SimListener* l : m_listeners) {
        l->onMemoryEvents(batch);
    }
    m_memoryBatchSize = 0;
}

void Pipeline::flushInstructions() {
    if (m_batchSize == 0) {
        return;
    }
    const std::span<const InstructionEvent> batch(m_batch.data(), m_batchSize);
    for (SimListener* l : m_listeners) {
        l->onInstructions(batch);
    }
    m_batchSize = 0;
    emitDmaBandwidth(false); // the calendar pieces finalised meanwhile, as one batch
    if (m_mark > m_markSent) {
        // Every event of the instructions so far is out (tile events included); no later one is earlier.
        flushMemoryBatch();
        for (SimListener* l : m_listeners) {
            l->onWatermark(m_mark);
        }
        m_markSent = m_mark;
    }
}

} // namespace kl::sim

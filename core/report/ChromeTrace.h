#pragma once

#include "result/SimResult.h"

#include <string>

namespace kl::core::report {

/// A simulated run as Chrome trace event JSON (chrome://tracing, Perfetto, speedscope). Layout:
///  - pid 1 "NeuronCore engines": one thread per compute lane (pe.ls, pe.mm, vector, scalar, gpsimd),
///    pid 2 "DMA queues": one thread per queue (dma.q0, ...), named by "M" thread_name metadata;
///  - one complete event ("X") per instruction, ts/dur in microseconds with picosecond precision, args
///    with program index, IR id, source file and line, wait cause, waited-on index and stall; a matmul
///    adds its LoadStationary as a second "X" on pe.ls;
///  - a flow ("s" on the instruction waited on, "f" with bp "e" on the waiter) per dependency wait;
///  - pid 3 "Memory and DMA": counter events ("C") for SBUF and PSUM bytes per partition, DMA data
///    rate (bytes/ns) and bytes in flight.
/// Written by hand in a fixed order with integer-derived numbers, so the same run gives the same bytes.
///
///     {"traceEvents":[
///     {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"NeuronCore engines"}},
///     {"name":"nc_matmul","cat":"compute","ph":"X","pid":1,"tid":1,"ts":0.358000,"dur":0.022912,"args":{...}},
class ChromeTrace {
public:
    struct Options {
        bool flows = true;
        bool counters = true;
    };
    [[nodiscard]] static std::string write(const sim::SimResult& result, const Options& options);
    [[nodiscard]] static std::string write(const sim::SimResult& result) { return write(result, Options{}); }

    static constexpr int kEnginePid = 1;
    static constexpr int kDmaPid = 2;
    static constexpr int kCounterPid = 3;
};

} // namespace kl::core::report

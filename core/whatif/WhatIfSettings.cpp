#include "whatif/WhatIfSettings.h"

#include "hw/ProfileFields.h"
#include "support/Try.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace kl::core {

namespace {

using P = sim::HardwareProfile;

const std::array<WhatIfField, 12> kFields{{
    {"hbm.bandwidth_per_core", "HBM bandwidth", "bytes/ns", 1, 100000, false,
     [](P& p) -> double& { return p.hbmBytesPerNs; }},
    {"dma.core_bandwidth", "DMA bandwidth (core)", "bytes/ns", 1, 100000, false,
     [](P& p) -> double& { return p.dma.coreBytesPerNs; }},
    {"dma.engine_bandwidth", "DMA bandwidth (per engine)", "bytes/ns", 0.1, 10000, false,
     [](P& p) -> double& { return p.dma.engineBytesPerNs; }},
    {"dma.queues", "DMA queues", "queues", 1, 64, true, [](P& p) -> double& { return p.dma.queues; }},
    {"dma.fixed_latency", "DMA fixed latency", "ns", 0, 100000, false,
     [](P& p) -> double& { return p.dma.fixedLatencyNs; }},
    {"clocks.tensor", "TensorE clock", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.tensorGhz; }},
    {"clocks.vector", "VectorE clock", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.vectorGhz; }},
    {"clocks.scalar", "ScalarE clock", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.scalarGhz; }},
    {"clocks.gpsimd", "GpSimdE clock", "GHz", 0.1, 10, false, [](P& p) -> double& { return p.gpsimdGhz; }},
    {"dma.engines", "DMA engines", "engines", 1, 64, true, [](P& p) -> double& { return p.dma.engines; }},
    {"sbuf.partition_bytes", "SBUF per partition", "bytes", 1024, 64.0 * 1024 * 1024, true,
     [](P& p) -> double& { return p.sbuf.partitionBytes; }},
    {"psum.partition_bytes", "PSUM per partition", "bytes", 2048, 16.0 * 1024 * 1024, true,
     [](P& p) -> double& { return p.psum.partitionBytes; }},
}};

} // namespace

std::span<const WhatIfField> whatIfFields() {
    return kFields;
}

const WhatIfField* findWhatIfField(std::string_view key) {
    for (const WhatIfField& f : kFields) {
        if (key == f.key) {
            return &f;
        }
    }
    return nullptr;
}

double fieldValue(const sim::HardwareProfile& profile, const WhatIfField& field) {
    // The accessor hands out a mutable reference; reading through a copy keeps `profile` const-correct.
    sim::HardwareProfile copy = profile;
    return field.field(copy);
}

Expected<sim::HardwareProfile> applyOverrides(const sim::HardwareProfile& base, const ProfileOverrides& overrides) {
    sim::HardwareProfile p = base;
    for (const auto& [key, value] : overrides) {
        const WhatIfField* f = findWhatIfField(key);
        if (!f) {
            return makeError(ErrorCode::InvalidArgument, fmt::format("unknown what-if field \"{}\"", key), {}, 0,
                             "use a field such as dma.core_bandwidth, dma.queues or clocks.tensor");
        }
        if (!std::isfinite(value) || value < f->minimum || value > f->maximum) {
            return makeError(ErrorCode::InvalidArgument, fmt::format("{} = {} is outside {} .. {} {}", key, value,
                                                                     f->minimum, f->maximum, f->unit));
        }
        f->field(p) = f->integral ? std::round(value) : value;
    }
    if (!overrides.empty()) {
        p.name = base.name + "-whatif";
    }
    // The what-if ranges lie inside the profile's (a test checks it); this keeps any combination honest too.
    KL_TRY(sim::checkProfile(p, p.name));
    return p;
}

std::string describeOverrides(const sim::HardwareProfile& base, const ProfileOverrides& overrides) {
    std::string out;
    for (const auto& [key, value] : overrides) {
        const WhatIfField* f = findWhatIfField(key);
        if (!f) {
            continue;
        }
        if (!out.empty()) {
            out += ", ";
        }
        out += fmt::format("{} {:g} -> {:g} {}", key, fieldValue(base, *f), value, f->unit);
    }
    return out;
}

} // namespace kl::core

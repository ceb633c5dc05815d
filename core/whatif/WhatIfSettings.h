#pragma once

#include "common/Error.h"
#include "hw/HardwareProfile.h"

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace kl::core {

/// A hardware-profile field a what-if may change, named as in the profile JSON ("dma.core_bandwidth").
struct WhatIfField {
    const char* key;   ///< group.key in resources/hw/*.json
    const char* label; ///< for people
    const char* unit;
    double minimum; ///< smallest sensible value (a spin box's lower bound)
    double maximum;
    bool integral; ///< queues and byte sizes are whole numbers
    double& (*field)(sim::HardwareProfile&);
};

/// The fields the what-if panel offers: HBM and DMA bandwidth, DMA queues and fixed latency, the four engine
/// clocks, SBUF and PSUM bytes per partition.
[[nodiscard]] std::span<const WhatIfField> whatIfFields();
[[nodiscard]] const WhatIfField* findWhatIfField(std::string_view key);

/// Field key -> new value. Only changed fields are listed.
using ProfileOverrides = std::map<std::string, double, std::less<>>;

[[nodiscard]] double fieldValue(const sim::HardwareProfile& profile, const WhatIfField& field);

/// `base` with `overrides` applied. Unknown keys and out-of-range values are errors naming the field.
[[nodiscard]] Expected<sim::HardwareProfile> applyOverrides(const sim::HardwareProfile& base,
                                                            const ProfileOverrides& overrides);

/// "dma.core_bandwidth 272 -> 544 bytes/ns, dma.queues 16 -> 8 queues" (empty when nothing changed).
[[nodiscard]] std::string describeOverrides(const sim::HardwareProfile& base, const ProfileOverrides& overrides);

} // namespace kl::core

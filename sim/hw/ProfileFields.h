#pragma once

#include "common/Error.h"
#include "hw/HardwareProfile.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kl::sim {

/// One numeric field of a hardware profile with the range the simulator accepts. The ranges are wide (real
/// hardware sits far inside them) but bound every value that becomes an integer, a size or a time, so that no
/// profile can make the simulator's arithmetic overflow, allocate without limit or divide by zero
/// (docs/simulator.md, "Hardware profiles", lists them). The what-if fields (core/whatif) stay inside them; a
/// test checks that.
struct ProfileField {
    const char* group;
    const char* key;
    const char* unit;
    double minimum;
    double maximum;
    bool integral; ///< counts and byte sizes: whole numbers
    double& (*field)(HardwareProfile&);

    [[nodiscard]] std::string name() const { return std::string(group) + "." + key; }
};

/// Largest DMA queue count: each queue is a timeline lane and a slot per transfer.
inline constexpr double kMaxDmaQueues = 64;
/// Largest byte size of one memory partition or PSUM bank (64 GiB: far above any NeuronCore).
inline constexpr double kMaxPartitionBytes = 68719476736.0; // 2^36
/// The DMA efficiency table: at most this many points, each efficiency at least this.
inline constexpr std::size_t kMaxEfficiencyPoints = 64;
inline constexpr double kMinDmaEfficiency = 0.001;
inline constexpr double kMaxEfficiencyBytes = 1099511627776.0; // 2^40 bytes per partition

/// Every numeric field, in the order of resources/hw/*.json.
[[nodiscard]] std::span<const ProfileField> profileFields();
/// The field named "group.key", or nullptr.
[[nodiscard]] const ProfileField* findProfileField(std::string_view name);

/// Checks every field of `profile` against its range and the efficiency table's shape; the error names the
/// field, the range and the value (and `origin` as the file). Loading calls it, so does every simulation run
/// (a profile built in code or changed by a what-if goes through it too).
[[nodiscard]] Expected<void> checkProfile(const HardwareProfile& profile, std::string_view origin = {});

} // namespace kl::sim

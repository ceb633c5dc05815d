#pragma once

#include "ir/KernelIr.h"

#include <optional>
#include <string>

namespace kl::test {

/// The first difference between two Kernel IRs in what they say (kernel, files, buffers, and per instruction
/// its op, engine, sizes, attributes, operands with their pattern dimensions, source frames, loop and program
/// indices), ignoring how the pools are laid out; nothing when they say the same. Used to show that the binary
/// and the JSON forms of a trace load to the same program.
[[nodiscard]] std::optional<std::string> firstDifference(const sim::KernelIr& a, const sim::KernelIr& b);

} // namespace kl::test

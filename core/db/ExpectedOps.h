#pragma once

#include "common/Error.h"
#include "support/Try.h"

#include <type_traits>
#include <utility>

namespace kl::core {

/// `first.and_then(next)` for Expected<void>: g++ 12's std::expected lacks the C++23 monadic
/// members, and a chain of checks reads better than a ladder of ifs. Replace once the toolchain has them.
template <typename F> [[nodiscard]] auto then(Expected<void> first, F&& next) -> std::invoke_result_t<F> {
    KL_TRY(first);
    return std::forward<F>(next)();
}

} // namespace kl::core

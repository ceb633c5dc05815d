#pragma once

#include "common/Error.h"

/// Passes a failure on: `KL_TRY(stmt);` returns the error of the Expected `stmt` (a name or any expression) from
/// the enclosing function, whatever Expected<U> that returns, and does nothing when it holds a value. It replaces
/// the three-line `if (!x) { return std::unexpected(x.error()); }` ladders (issue 22); the value stays where it is
/// declared, with its type spelled there, so nothing about the types is hidden. A macro because only a macro can
/// return from the caller.
#define KL_TRY(expr)                                                                                                   \
    do {                                                                                                               \
        if (auto&& kl_try_result_ = (expr); !kl_try_result_) {                                                         \
            return std::unexpected(kl_try_result_.error());                                                            \
        }                                                                                                              \
    } while (false)

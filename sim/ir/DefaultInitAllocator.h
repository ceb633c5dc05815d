#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace kl::sim {

/// std::allocator whose value-less construct() default-initializes: a vector of integers that is resized leaves the
/// new elements unwritten instead of zeroing them. For the IR pools a reader fills straight from its file
/// (KernelIr::appendIntsInPlace): zeroing tens of megabytes that are overwritten at once costs a pass over fresh
/// memory (a tenth of a binary load, measured with perf).
template <typename T> class DefaultInitAllocator : public std::allocator<T> {
public:
    using value_type = T;
    template <typename U> struct rebind { using other = DefaultInitAllocator<U>; };

    DefaultInitAllocator() = default;
    template <typename U> DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    template <typename U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args> void construct(U* p, Args&&... args) {
        std::construct_at(p, std::forward<Args>(args)...);
    }
};

/// A vector whose resize() does not zero new trivially constructible elements.
template <typename T> using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

} // namespace kl::sim

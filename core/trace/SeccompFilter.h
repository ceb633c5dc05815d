#pragma once

#include "common/Error.h"

#include <string>

namespace kl::core {

/// What the system-call filter of the sandbox lets a kernel do beyond computing: nothing that reaches
/// outside the process.
struct SeccompPolicy {
    /// fork, vfork and clone without CLONE_THREAD fail with EPERM (threads are allowed). Only tests that check
    /// the PID namespace itself turn this off.
    bool denyProcesses = true;
};

/// Compiles the sandbox's seccomp filter (libseccomp) into the BPF program bubblewrap loads with
/// `--seccomp FD`: every socket fails with EPERM, and so do new processes, namespaces, mounts, ptrace and
/// process_vm_*, keyrings, bpf, perf events, userfaultfd, io_uring (which could open sockets past the
/// filter), kernel modules and kexec. clone3 answers ENOSYS so that the C library falls back to clone, whose
/// flags the filter can see. Calls of other architectures (32-bit x86 on x86-64) kill the process.
[[nodiscard]] Expected<std::string> compileSeccompFilter(const SeccompPolicy& policy = {});

} // namespace kl::core

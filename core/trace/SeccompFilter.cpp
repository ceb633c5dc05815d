#include "trace/SeccompFilter.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

namespace kl::core {
namespace {

struct ContextDeleter {
    void operator()(void* ctx) const { seccomp_release(ctx); }
};
using Context = std::unique_ptr<void, ContextDeleter>;

/// Calls that fail with EPERM whatever their arguments.
constexpr const char* kDenied[] = {
    "socket",
    "socketpair", // the network namespace is empty anyway; this makes the failure immediate
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "open_by_handle_at",
    "name_to_handle_at",
    "acct",
    "swapon",
    "swapoff",
    "syslog",
    "quotactl",
    "personality",
};

constexpr const char* kProcesses[] = {"fork", "vfork"};

Expected<void> addRule(void* ctx, uint32_t action, const char* name, unsigned argCount = 0, scmp_arg_cmp arg = {}) {
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) {
        return {}; // not a call on this architecture (fork on arm64, say): nothing to deny
    }
    const int rc = argCount == 0 ? seccomp_rule_add(ctx, action, nr, 0) : seccomp_rule_add(ctx, action, nr, 1, arg);
    if (rc != 0) {
        return makeError(ErrorCode::Internal,
                         fmt::format("seccomp: cannot add a rule for {}: {}", name, std::strerror(-rc)));
    }
    return {};
}

Expected<std::string> exportProgram(void* ctx) {
    const int fd = ::memfd_create("kernellens-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
        return makeError(ErrorCode::Io, std::string("seccomp: memfd_create: ") + std::strerror(errno));
    }
    std::string program;
    if (const int rc = seccomp_export_bpf(ctx, fd); rc == 0 && ::lseek(fd, 0, SEEK_SET) == 0) {
        char buffer[4096];
        ssize_t n = 0;
        while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
            program.append(buffer, static_cast<std::size_t>(n));
        }
    }
    ::close(fd);
    if (program.empty()) {
        return makeError(ErrorCode::Internal, "seccomp: the filter could not be exported");
    }
    return program;
}

} // namespace

Expected<std::string> compileSeccompFilter(const SeccompPolicy& policy) {
    Context ctx(seccomp_init(SCMP_ACT_ALLOW));
    if (!ctx) {
        return makeError(ErrorCode::Internal, "seccomp: cannot create a filter");
    }
    const uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
    for (const char* name : kDenied) {
        KL_TRY(addRule(ctx.get(), eperm, name));
    }
    if (policy.denyProcesses) {
        for (const char* name : kProcesses) {
            KL_TRY(addRule(ctx.get(), eperm, name));
        }
        // A thread shares everything with the process; anything else is a new process.
        const scmp_arg_cmp notThread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
        KL_TRY(addRule(ctx.get(), eperm, "clone", 1, notThread));
    }
    // clone3 passes its flags in memory the filter cannot read: ENOSYS makes the C library use clone.
    KL_TRY(addRule(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), "clone3"));
    return exportProgram(ctx.get());
}

} // namespace kl::core

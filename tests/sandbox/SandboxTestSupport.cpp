#include "SandboxTestSupport.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <grp.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#ifndef KL_SOURCE_DIR
#define KL_SOURCE_DIR ""
#endif

namespace kl::test {
namespace fs = std::filesystem;

namespace {

constexpr uid_t kNobody = 65534;

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

long peakRss() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("VmHWM:")) {
            return std::strtol(line.c_str() + 6, nullptr, 10);
        }
    }
    return -1;
}

/// A copy of the front end where nobody can read it (the source tree may sit in root's home), as KL_DATA_DIR;
/// removed when the test process ends (a child that dropped privileges leaves with _exit, before that).
struct ReadableDataDir {
    fs::path root;
    ReadableDataDir() {
        std::string pattern = "/tmp/kl-sandbox-data-XXXXXX";
        root = ::mkdtemp(pattern.data());
        fs::create_directories(root / "resources");
        fs::copy(fs::path(KL_SOURCE_DIR) / "resources" / "hw", root / "resources" / "hw"); // the front end's limits
        fs::create_directories(root / "sim");
        fs::copy(fs::path(KL_SOURCE_DIR) / "sim" / "frontend", root / "sim" / "frontend", fs::copy_options::recursive);
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            fs::permissions(entry.path(), entry.is_directory() ? fs::perms(0755) : fs::perms(0644));
        }
        fs::permissions(root, fs::perms(0755));
    }
    ~ReadableDataDir() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

const fs::path& readableDataDir() {
    static const ReadableDataDir dir;
    return dir.root;
}

} // namespace

std::string privilegeName(Privilege who) {
    return who == Privilege::AsIs ? "as_is" : "nobody";
}

HostileWorkspace::HostileWorkspace() {
    std::string pattern = "/tmp/kl-hostile-XXXXXX";
    m_root = ::mkdtemp(pattern.data());
    for (const char* sub : {"kernel", "home", "outside", "out"}) {
        fs::create_directories(m_root / sub);
    }
    writeFile(secretFile(), "TOPSECRET-0xC0FFEE\n");
    fs::permissions(m_root, fs::perms(0755));
    fs::permissions(m_root / "kernel", fs::perms(0755));
    fs::permissions(m_root / "home", fs::perms(0755));
    fs::permissions(secretFile(), fs::perms(0644));
    fs::permissions(outsideDir(), fs::perms(0777));
    fs::permissions(m_root / "out", fs::perms(0777));
}

HostileWorkspace::~HostileWorkspace() {
    std::error_code ec;
    fs::remove_all(m_root, ec);
}

core::TraceRequest HostileWorkspace::writeKernel(const std::string& imports, const std::string& body,
                                                 int timeoutSeconds) {
    std::string text = "import nki\nimport nki.isa as nisa\nimport nki.language as nl\n" + imports +
                       "\n\n@nki.jit\ndef hostile(a):\n" + body +
                       "\n    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)\n"
                       "    t = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)\n"
                       "    nisa.dma_copy(dst=t, src=a[0:128, 0:64])\n"
                       "    nisa.dma_copy(dst=out[0:128, 0:64], src=t)\n"
                       "    return out\n";
    const fs::path file = kernelDir() / "kernel.py";
    writeFile(file, text);
    fs::permissions(file, fs::perms(0644));
    core::TraceRequest request;
    request.kernelFile = file;
    request.argSpecs = {"a=128x64:float32"};
    request.output = output();
    request.timeoutSeconds = timeoutSeconds;
    return request;
}

std::string runAs(Privilege who, const std::function<std::string()>& work) {
    if (who == Privilege::AsIs || ::geteuid() != 0) {
        return work();
    }
    const fs::path data = readableDataDir();
    int fds[2];
    if (::pipe(fds) != 0) {
        return "pipe failed";
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string text;
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0 || ::getuid() != kNobody) {
            text = "cannot drop privileges";
        } else {
            ::setenv("KL_DATA_DIR", data.c_str(), 1);
            ::setenv("HOME", "/nonexistent", 1);
            ::setenv("TMPDIR", "/tmp", 1);
            text = work();
        }
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
            if (n <= 0) {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string text;
    char buffer[65536];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return text;
}

Observed traceAs(Privilege who, const core::TraceRequest& request) {
    const std::string text = runAs(who, [&] {
        auto outcome = core::runTrace(request);
        nlohmann::json j;
        j["ok"] = outcome.has_value();
        if (outcome) {
            j["warnings"] = outcome->warnings;
            j["dropped"] = outcome->droppedOutputBytes;
            j["sandboxed"] = outcome->sandboxed;
        } else {
            j["code"] = static_cast<int>(outcome.error().code);
            j["message"] = outcome.error().message;
            j["hint"] = outcome.error().hint;
        }
        j["peak"] = peakRss();
        j["who"] = "uid=" + std::to_string(::getuid());
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    });
    const auto j = nlohmann::json::parse(text, nullptr, false);
    Observed seen;
    if (!j.is_object()) {
        seen.message = "the run reported nothing readable: " + text;
        return seen;
    }
    seen.ok = j.value("ok", false);
    seen.code = j.value("code", -1);
    seen.message = j.value("message", "");
    seen.hint = j.value("hint", "");
    seen.warnings = j.value("warnings", "");
    seen.droppedOutputBytes = j.value("dropped", std::uint64_t{0});
    seen.sandboxed = j.value("sandboxed", false);
    seen.peakRssKilobytes = j.value("peak", -1L);
    seen.whoRan = j.value("who", "");
    return seen;
}

} // namespace kl::test

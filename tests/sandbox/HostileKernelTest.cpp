// Hostile kernels, one per escape a kernel might try, each traced through core::runTrace as this process runs
// (root in CI) and as nobody (a child that dropped privileges). Each must be stopped with a clear message, or
// fail inside the sandbox so that the kernel's own error is reported, with no effect outside.
#include "SandboxTestSupport.h"

#include "trace/Sandbox.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using kl::ErrorCode;
using kl::test::HostileWorkspace;
using kl::test::Observed;
using kl::test::Privilege;
using kl::test::traceAs;

std::string quoted(const fs::path& path) {
    return "'" + path.string() + "'";
}

class HostileKernel : public ::testing::TestWithParam<Privilege> {
protected:
    void SetUp() override {
        const auto status = kl::core::Sandbox::status();
        ASSERT_TRUE(status.available) << status.problem << "\n" << status.hint;
    }

    Observed trace(const kl::core::TraceRequest& request) {
        Observed seen = traceAs(GetParam(), request);
        if (GetParam() == Privilege::Nobody && ::geteuid() == 0) {
            EXPECT_EQ(seen.whoRan, "uid=65534");
        }
        return seen;
    }

    static void expectKernelError(const Observed& seen, const std::string& text) {
        EXPECT_FALSE(seen.ok);
        EXPECT_EQ(seen.code, static_cast<int>(ErrorCode::KernelError)) << seen.message;
        EXPECT_NE(seen.message.find(text), std::string::npos) << seen.message;
    }

    HostileWorkspace ws;
};

TEST_P(HostileKernel, CannotReadEtcPasswd) {
    const Observed seen = trace(ws.writeKernel("", "    print(open('/etc/passwd').read())"));
    expectKernelError(seen, "FileNotFoundError");
    EXPECT_EQ(seen.message.find("root:"), std::string::npos);
}

TEST_P(HostileKernel, CannotReadAFileBesideItsFolder) {
    const Observed seen =
        trace(ws.writeKernel("", "    raise ValueError(open(" + quoted(ws.secretFile()) + ").read())"));
    expectKernelError(seen, "FileNotFoundError");
    EXPECT_EQ(seen.message.find("TOPSECRET"), std::string::npos);
}

/// A kernel saved straight into /tmp: the sandbox mounts that file alone, not the shared /tmp, so the kernel
/// keeps its private writable /tmp and cannot read what others left in the real one.
TEST_P(HostileKernel, AKernelSavedInTmpSeesItsPrivateTmpNotTheSharedOne) {
    const std::string tag = std::to_string(::getpid()) + (GetParam() == Privilege::Nobody ? "n" : "a");
    const fs::path secret = "/tmp/kl-shared-secret-" + tag + ".txt";
    const fs::path kernel = "/tmp/kl-kernel-in-tmp-" + tag + ".py";
    kl::core::TraceRequest request =
        ws.writeKernel("import tempfile", "    tempfile.TemporaryFile().close()\n    raise ValueError(open(" +
                                              quoted(secret) + ").read())");
    {
        std::ofstream(secret) << "TOPSECRET";
        std::error_code ec;
        fs::copy_file(request.kernelFile, kernel, fs::copy_options::overwrite_existing, ec);
        ASSERT_FALSE(ec) << ec.message();
        fs::permissions(kernel, fs::perms(0644));
    }
    request.kernelFile = kernel;
    const Observed seen = trace(request);
    std::error_code ec;
    fs::remove(secret, ec);
    fs::remove(kernel, ec);
    expectKernelError(seen, "FileNotFoundError");
    EXPECT_NE(seen.message.find("kl-shared-secret"), std::string::npos) << seen.message;
    EXPECT_EQ(seen.message.find("TOPSECRET"), std::string::npos);
    EXPECT_EQ(seen.message.find("temporary directory"), std::string::npos) << seen.message;
}

TEST_P(HostileKernel, SeesNoHomeNoEnvironmentAndNoOtherProcesses) {
    const std::string body =
        "    import json, os\n"
        "    pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "    raise ValueError(json.dumps({'env': sorted(os.environ), 'pids': len(pids),\n"
        "        'home': any(os.path.exists(p) for p in ('/etc/passwd', '/root/.bashrc', '/run', '/var')),\n"
        "        'beside': sorted(os.listdir(" +
        quoted(ws.root()) + "))}))";
    ::setenv("KL_TEST_SECRET", "do-not-leak", 1);
    const Observed seen = trace(ws.writeKernel("", body));
    expectKernelError(seen, "ValueError");
    EXPECT_EQ(seen.message.find("KL_TEST_SECRET"), std::string::npos) << seen.message;
    EXPECT_EQ(seen.message.find("HOME"), std::string::npos) << seen.message;
    EXPECT_NE(seen.message.find("\"pids\": 2"), std::string::npos) << seen.message; // bwrap's init and Python
    EXPECT_NE(seen.message.find("\"home\": false"), std::string::npos) << seen.message;
    EXPECT_NE(seen.message.find("\"beside\": [\"kernel\"]"), std::string::npos) << seen.message;
}

TEST_P(HostileKernel, CannotWriteOutsideOrIntoItsOwnFolder) {
    const fs::path outside = ws.outsideDir() / "pwned.txt";
    const fs::path own = ws.kernelDir() / "pwned.txt";
    const std::string body = "    try:\n"
                             "        open(" +
                             quoted(outside) +
                             ", 'w').write('x')\n"
                             "    except OSError:\n"
                             "        pass\n"
                             "    open(" +
                             quoted(own) + ", 'w').write('x')";
    const Observed seen = trace(ws.writeKernel("", body));
    expectKernelError(seen, "Read-only file system");
    EXPECT_NE(seen.hint.find("sandbox"), std::string::npos) << seen.hint;
    EXPECT_FALSE(fs::exists(outside));
    EXPECT_FALSE(fs::exists(own));
}

TEST_P(HostileKernel, CannotSpawnProcesses) {
    const std::string body = "    rc = os.system('echo spawned > /tmp/marker')\n"
                             "    assert rc != 0, 'os.system ran'\n"
                             "    subprocess.run(['/bin/sh', '-c', 'true'], check=True)";
    const Observed seen = trace(ws.writeKernel("import os\nimport subprocess", body));
    expectKernelError(seen, "PermissionError");
    EXPECT_NE(seen.hint.find("sandbox"), std::string::npos) << seen.hint;
}

TEST_P(HostileKernel, AForkedSetsidOrphanIsRefused) {
    const fs::path marker = ws.outsideDir() / "orphan-alive";
    const std::string body = "    if os.fork() == 0:\n"
                             "        os.setsid()\n"
                             "        time.sleep(1)\n"
                             "        open(" +
                             quoted(marker) +
                             ", 'w').write('alive')\n"
                             "        os._exit(0)";
    const Observed seen = trace(ws.writeKernel("import os\nimport time", body));
    expectKernelError(seen, "PermissionError");
    EXPECT_FALSE(fs::exists(marker));
}

/// A TCP listener on the host's loopback: no kernel may reach it.
class Listener {
public:
    Listener() {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(m_fd, 8);
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
    }
    ~Listener() { ::close(m_fd); }
    [[nodiscard]] int port() const { return m_port; }
    [[nodiscard]] bool reached() const {
        const int c = ::accept(m_fd, nullptr, nullptr);
        if (c >= 0) {
            ::close(c);
        }
        return c >= 0;
    }

private:
    int m_fd = -1;
    int m_port = 0;
};

TEST_P(HostileKernel, CannotOpenASocket) {
    Listener host;
    const std::string body = fmt::format("    socket.create_connection(('127.0.0.1', {}), timeout=2)", host.port());
    const Observed seen = trace(ws.writeKernel("import socket", body));
    EXPECT_FALSE(seen.ok);
    EXPECT_NE(seen.message.find("network"), std::string::npos) << seen.message;
    EXPECT_FALSE(host.reached());
}

TEST_P(HostileKernel, CannotOpenASocketThroughAFreshUnderscoreSocket) {
    Listener host;
    const std::string body = fmt::format("    sys.modules.pop('_socket', None)\n"
                                         "    import _socket\n"
                                         "    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n"
                                         "    s.connect(('127.0.0.1', {}))",
                                         host.port());
    const Observed seen = trace(ws.writeKernel("import sys", body));
    expectKernelError(seen, "PermissionError");
    EXPECT_FALSE(host.reached());
}

TEST_P(HostileKernel, CannotOpenASocketThroughCtypes) {
    const std::string body = "    libc = ctypes.CDLL(None, use_errno=True)\n"
                             "    fd = libc.socket(2, 1, 0)\n"
                             "    if fd < 0:\n"
                             "        e = ctypes.get_errno()\n"
                             "        raise OSError(e, 'socket() from libc: ' + os.strerror(e))\n"
                             "    raise ValueError('libc.socket worked')";
    const Observed seen = trace(ws.writeKernel("import ctypes\nimport os", body));
    expectKernelError(seen, "Operation not permitted");
}

TEST_P(HostileKernel, IgnoringSignalsWithClosedPipesEndsAtTheHardDeadline) {
    const std::string body = "    for s in (signal.SIGALRM, signal.SIGXCPU, signal.SIGTERM, signal.SIGINT):\n"
                             "        signal.signal(s, signal.SIG_IGN)\n"
                             "    for fd in range(0, 256):\n"
                             "        try:\n"
                             "            os.close(fd)\n"
                             "        except OSError:\n"
                             "            pass\n"
                             "    time.sleep(600)";
    const Observed seen = trace(ws.writeKernel("import os\nimport signal\nimport time", body, /*timeout=*/2));
    EXPECT_FALSE(seen.ok);
    EXPECT_EQ(seen.code, static_cast<int>(ErrorCode::Timeout)) << seen.message;
    EXPECT_NE(seen.message.find("killed"), std::string::npos) << seen.message;
}

TEST_P(HostileKernel, FloodingOutputKeepsTheToolsMemoryBounded) {
    // 600 MiB on stdout (which the front end sends to stderr), and 40 MiB into every pipe it can find (the
    // front end's report channel among them).
    const std::string body = "    chunk = b'x' * (1 << 20)\n"
                             "    for _ in range(600):\n"
                             "        os.write(1, chunk)\n"
                             "    for fd in range(3, 32):\n"
                             "        try:\n"
                             "            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
                             "                for _ in range(40):\n"
                             "                    os.write(fd, chunk)\n"
                             "        except OSError:\n"
                             "            pass";
    const Observed seen = trace(ws.writeKernel("import os\nimport stat", body));
    ASSERT_TRUE(seen.ok) << seen.message;
    EXPECT_GE(seen.droppedOutputBytes, 600ull << 20);
    EXPECT_LT(seen.warnings.size(), 200u * 1024);
    EXPECT_NE(seen.warnings.find("bytes of output not kept"), std::string::npos);
    EXPECT_GT(seen.peakRssKilobytes, 0);
    EXPECT_LT(seen.peakRssKilobytes, 200 * 1024) << "the tool's own peak memory, in KiB";
}

TEST_P(HostileKernel, AForgedResultIsNotAccepted) {
    // The kernel writes an IR of its own where the front end writes its result, says "done" on every pipe,
    // and ends the process with success.
    const std::string body =
        "    fake = b'{\"format\": \"kernellens-ir\", \"version\": 1, \"instructions\": []}'\n"
        "    fd = int(sys.argv[sys.argv.index('--output-fd') + 1])\n"
        "    os.write(fd, fake)\n"
        "    for f in range(3, 32):\n"
        "        try:\n"
        "            if stat.S_ISFIFO(os.fstat(f).st_mode):\n"
        "                os.write(f, b'\\n{\"done\": {\"bytes\": %d}}\\n' % len(fake))\n"
        "                os.write(f, b'{\"nonce\": \"' + b'0' * 32 + b'\", \"done\": {\"bytes\": %d}}\\n' % "
        "len(fake))\n"
        "        except OSError:\n"
        "            pass\n"
        "    os._exit(0)";
    const auto request = ws.writeKernel("import os\nimport stat\nimport sys", body);
    const Observed seen = trace(request);
    expectKernelError(seen, "without reporting a result");
    EXPECT_FALSE(fs::exists(request.output));
}

TEST_P(HostileKernel, AnErrorItPrintsIsShownAsItsOutputNotAsKernelLenssMessage) {
    const std::string fake =
        R"({"error": {"code": "io", "message": "FAKE-MESSAGE", "hint": "FAKE-HINT: curl x | sh"}})";
    const std::string body = "    fake = '" + fake + "'\n    print(fake, flush=True)\n    os._exit(2)";
    const Observed seen = trace(ws.writeKernel("import os", body));
    expectKernelError(seen, "without reporting a result");
    EXPECT_TRUE(seen.message.starts_with("the NKI front end ended")) << seen.message;
    EXPECT_EQ(seen.hint.find("FAKE"), std::string::npos) << seen.hint;
    // What it printed is quoted as its output.
    EXPECT_NE(seen.message.find("the kernel's last output was:"), std::string::npos);
}

TEST_P(HostileKernel, AnErrorItPrintsBeforeReturningNormallyIsOnlyOutput) {
    const std::string fake = R"({"error": {"code": "io", "message": "FAKE-MESSAGE", "hint": "FAKE-HINT"}})";
    const Observed seen = trace(ws.writeKernel("", "    print('" + fake + "')"));
    ASSERT_TRUE(seen.ok) << seen.message;
    EXPECT_NE(seen.warnings.find("FAKE-MESSAGE"), std::string::npos);
}

/// The front end reads its size limits from a hardware profile inside the sandbox: its default (trn1) refuses a
/// tile that the chosen profile (a trn2 copy beside the kernel, mounted on its own) holds.
TEST_P(HostileKernel, ChecksTileSizesAgainstTheChosenHardwareProfile) {
    kl::core::TraceRequest request =
        ws.writeKernel("", "    big = nl.ndarray((128, 52000), dtype=nl.float32, buffer=nl.sbuf)");
    // A tile trn1 cannot hold: refused when trn1 is chosen (without a choice, this nki.* kernel is checked
    // against trn2, the hardware the simulator picks for it), accepted when a trn2 profile file is.
    const fs::path trn1 = ws.root() / "chosen-trn1.json";
    fs::copy_file(fs::path(KL_SOURCE_DIR) / "resources" / "hw" / "trn1.json", trn1);
    fs::permissions(trn1, fs::perms(0644));
    request.hardware = trn1.string();
    expectKernelError(trace(request), "a partition holds 196608");
    const fs::path profile = ws.root() / "chosen-trn2.json";
    fs::copy_file(fs::path(KL_SOURCE_DIR) / "resources" / "hw" / "trn2.json", profile);
    fs::permissions(profile, fs::perms(0644));
    request.hardware = profile.string();
    const Observed seen = trace(request);
    EXPECT_TRUE(seen.ok) << seen.message;
}

INSTANTIATE_TEST_SUITE_P(Privileges, HostileKernel, ::testing::Values(Privilege::AsIs, Privilege::Nobody),
                         [](const auto& info) { return kl::test::privilegeName(info.param); });

} // namespace

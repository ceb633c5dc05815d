#include "support/AtomicFile.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace kl::core {
namespace fs = std::filesystem;

namespace {

/// Writes all of `bytes` and flushes them; 0 or the errno of the first failure.
int writeAndSync(int fd, std::string_view bytes) {
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 ? errno : EIO;
        }
        written += static_cast<std::size_t>(n);
    }
    return ::fsync(fd) == 0 ? 0 : errno;
}

} // namespace

Expected<void> writeFileAtomically(const fs::path& path, std::string_view bytes, bool privateToOwner,
                                   std::string_view what) {
    const fs::path temporary = fs::path(path).concat(fmt::format(".part-{}", ::getpid()));
    const int fd =
        ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, privateToOwner ? 0600 : 0666);
    if (fd < 0) {
        return makeError(ErrorCode::Io, fmt::format("cannot write {} ({})", what, std::strerror(errno)), path.string());
    }
    int why = writeAndSync(fd, bytes);
    if (::close(fd) != 0 && why == 0) {
        why = errno;
    }
    if (why == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) {
        why = errno;
    }
    if (why != 0) {
        ::unlink(temporary.c_str());
        return makeError(ErrorCode::Io, fmt::format("cannot write {} ({})", what, std::strerror(why)), path.string());
    }
    return {};
}

} // namespace kl::core

// Workspace trust (core/trust): content hashes, the decision, and a store file that may be broken or hostile.
#include "TestSupport.h"

#include "support/ResourcePaths.h"
#include "trust/Sha256.h"
#include "trust/TrustStore.h"
#include "trust/TrustSubject.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

namespace kl::core::test {
namespace {

namespace fs = std::filesystem;

std::string sha256(std::string_view text) {
    Sha256 h;
    h.update(text);
    return h.hex();
}

std::string hashOf(const fs::path& folder) {
    auto subject = describeTaskFolder(folder);
    EXPECT_TRUE(subject.has_value()) << (subject ? "" : formatError(subject.error()));
    return subject ? subject->contentHash : std::string{};
}

TEST(Sha256Test, MatchesTheStandardVectors) {
    EXPECT_EQ(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    Sha256 million;
    const std::string chunk(1000, 'a');
    for (int i = 0; i < 1000; ++i) {
        million.update(chunk);
    }
    EXPECT_EQ(million.hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, PiecesHashLikeTheWhole) {
    std::string text;
    for (int i = 0; i < 300; ++i) {
        text.push_back(static_cast<char>(i * 7));
    }
    for (std::size_t cut : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 127u, 299u}) {
        Sha256 h;
        h.update(std::string_view(text).substr(0, cut));
        h.update(std::string_view(text).substr(cut));
        EXPECT_EQ(h.hex(), sha256(text)) << cut;
    }
}

TEST(TrustSubjectTest, AChangeToWhatRunsChangesTheHash) {
    TempDir dir;
    const fs::path task = makeTaskFolder(dir.path(), "t1");
    const std::string first = hashOf(task);
    ASSERT_TRUE(first.starts_with("sha256:"));
    EXPECT_EQ(hashOf(task), first) << "the hash is stable";

    writeBytes((task / "kernel.cu").string(), "// the CUDA side does not run\n");
    writeBytes((task / "README.md").string(), "notes\n");
    fs::create_directories(task / ".git");
    writeBytes((task / ".git" / "hook.py").string(), "not importable\n");
    EXPECT_EQ(hashOf(task), first) << "files that cannot run do not count";

    const auto changed = [&](const char* what, const std::function<void()>& change) {
        const std::string before = hashOf(task);
        change();
        EXPECT_NE(hashOf(task), before) << what;
    };
    changed("kernel", [&] { writeBytes((task / "kernel.py").string(), "import os\nos.system('x')\n"); });
    changed("task.json", [&] {
        writeBytes((task / "task.json").string(),
                   R"({"title": "t", "kernel_file": "kernel.py", "kernel": "k", "args": [], "scalars": {"n": 2}})");
    });
    changed("a module beside the kernel", [&] { writeBytes((task / "helper.py").string(), "x = 1\n"); });
    changed("a module in a sub folder", [&] {
        fs::create_directories(task / "sub");
        writeBytes((task / "sub" / "m.py").string(), "y = 2\n");
    });
    changed("byte code", [&] {
        fs::create_directories(task / "__pycache__");
        writeBytes((task / "__pycache__" / "helper.cpython-311.pyc").string(), "\x01\x02");
    });
    changed("an extension module", [&] { writeBytes((task / "fast.so").string(), "ELF"); });
}

TEST(TrustSubjectTest, TheHashDoesNotDependOnWhereTheFolderIs) {
    TempDir dir;
    EXPECT_EQ(hashOf(makeTaskFolder(dir.path(), "a")), hashOf(makeTaskFolder(dir.path() / "elsewhere", "b")));
}

TEST(TrustSubjectTest, AKernelInAPackageCoversTheWholePackage) {
    TempDir dir;
    const fs::path root = dir.path() / "proj";
    fs::create_directories(root / "pkg" / "kernels");
    fs::create_directories(root / "pkg" / "common");
    for (const char* init : {"pkg/__init__.py", "pkg/kernels/__init__.py", "pkg/common/__init__.py"}) {
        writeBytes((root / init).string(), "");
    }
    writeBytes((root / "pkg/kernels/k.py").string(), "from ..common import util\n");
    writeBytes((root / "pkg/common/util.py").string(), "def f(): pass\n");
    EXPECT_EQ(codeRootOf(root / "pkg/kernels/k.py"), fs::weakly_canonical(root));
    auto before = describeKernelFile(root / "pkg/kernels/k.py");
    ASSERT_TRUE(before.has_value());
    EXPECT_EQ(before->preview.hashedFiles, 6u); // the kernel, then each of the 5 importable files
    writeBytes((root / "pkg/common/util.py").string(), "import os\n");
    auto after = describeKernelFile(root / "pkg/kernels/k.py");
    ASSERT_TRUE(after.has_value());
    EXPECT_NE(after->contentHash, before->contentHash);
}

TEST(TrustSubjectTest, TooMuchCodeMeansNoHashNotACrash) {
    TempDir dir;
    const fs::path task = makeTaskFolder(dir.path(), "big");
    for (int i = 0; i < 5; ++i) {
        writeBytes((task / ("m" + std::to_string(i) + ".py")).string(), "x = 1\n");
    }
    auto subject = describeTaskFolder(task, {.maxFiles = 3});
    ASSERT_TRUE(subject.has_value());
    EXPECT_TRUE(subject->contentHash.empty());
    EXPECT_NE(subject->hashProblem.find("more than 3"), std::string::npos) << subject->hashProblem;
    auto bytes = describeTaskFolder(task, {.maxBytes = 10});
    ASSERT_TRUE(bytes.has_value());
    EXPECT_TRUE(bytes->contentHash.empty());
    EXPECT_FALSE(bytes->hashProblem.empty());
    // Content trust can never match a subject without a hash.
    TrustStore store(dir.file("trust.json"));
    EXPECT_FALSE(store.decide(*subject, {}).trusted());
}

TEST(TrustSubjectTest, AReviewHashesEveryStoredTaskAndNamesItsAuthor) {
    TempDir dir;
    auto review = makeReview(dir.file("r.klreview"));
    ASSERT_TRUE(review.tasks().addFromFolder(makeTaskFolder(dir.path(), "t1")).has_value());
    auto first = describeReview(review);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->authors, std::vector<std::string>{"alice"});
    EXPECT_EQ(first->preview.tasks.size(), 1u);
    Annotation note;
    note.taskId = 1;
    note.text = "annotations are not code";
    note.author = "bob";
    ASSERT_TRUE(review.annotations().create(note).has_value());
    EXPECT_EQ(describeReview(review)->contentHash, first->contentHash);
    ASSERT_TRUE(review.tasks().addFromFolder(makeTaskFolder(dir.path(), "t2")).has_value());
    EXPECT_NE(describeReview(review)->contentHash, first->contentHash);
}

class TrustStoreTest : public ::testing::Test {
protected:
    TempDir m_dir;
    fs::path m_storePath = m_dir.path() / "config" / "trust.json";

    TrustSubject subject(const std::string& name) {
        auto s = describeTaskFolder(makeTaskFolder(m_dir.path() / "tasks", name));
        EXPECT_TRUE(s.has_value());
        return s ? *s : TrustSubject{};
    }
};

TEST_F(TrustStoreTest, AMissingStoreTrustsNothing) {
    auto store = TrustStore::load(m_storePath);
    ASSERT_TRUE(store.has_value());
    EXPECT_TRUE(store->entries().empty());
    EXPECT_EQ(store->decide(subject("t"), {}).reason, TrustReason::NotTrusted);
}

TEST_F(TrustStoreTest, TrustedContentIsAskedAgainWhenItChanges) {
    TrustStore store(m_storePath);
    const TrustSubject t = subject("t");
    ASSERT_TRUE(store.add(contentTrust(t)).has_value());
    EXPECT_EQ(store.decide(t, {}).reason, TrustReason::Content);
    writeBytes((t.location / "kernel.py").string(), "import os\n");
    auto changed = describeTaskFolder(t.location);
    ASSERT_TRUE(changed.has_value());
    EXPECT_FALSE(store.decide(*changed, {}).trusted());
}

TEST_F(TrustStoreTest, AFolderTrustsWhatIsInsideItOnly) {
    TrustStore store(m_storePath);
    ASSERT_TRUE(store.add({TrustKind::Folder, (m_dir.path() / "tasks").string(), "", ""}).has_value());
    const TrustDecision inside = store.decide(subject("t"), {});
    EXPECT_EQ(inside.reason, TrustReason::Folder);
    auto sibling = describeTaskFolder(makeTaskFolder(m_dir.path() / "tasks2", "t"));
    ASSERT_TRUE(sibling.has_value());
    EXPECT_FALSE(store.decide(*sibling, {}).trusted()) << "a common string prefix is not a parent folder";
    // A symlink inside the trusted folder that leads out of it is judged by where it leads.
    fs::create_symlink(sibling->location, m_dir.path() / "tasks" / "link");
    auto linked = describeTaskFolder(m_dir.path() / "tasks" / "link");
    ASSERT_TRUE(linked.has_value());
    EXPECT_FALSE(store.decide(*linked, {}).trusted());
}

TEST_F(TrustStoreTest, TheBundledExamplesAreTrusted) {
    TrustStore store(m_storePath);
    auto example = describeTaskFolder(examplesDir() / "vector_add_nki");
    ASSERT_TRUE(example.has_value());
    EXPECT_EQ(store.decide(*example, examplesDir()).reason, TrustReason::BundledExample);
    // The same files copied elsewhere are someone's folder like any other.
    const fs::path copy = m_dir.path() / "vector_add_nki";
    fs::copy(examplesDir() / "vector_add_nki", copy, fs::copy_options::recursive);
    auto copied = describeTaskFolder(copy);
    ASSERT_TRUE(copied.has_value());
    EXPECT_FALSE(store.decide(*copied, examplesDir()).trusted());
}

TEST_F(TrustStoreTest, AnAuthorIsTrustedForReviewsOnly) {
    auto review = makeReview(m_dir.file("r.klreview"));
    ASSERT_TRUE(review.tasks().addFromFolder(makeTaskFolder(m_dir.path(), "t1")).has_value());
    auto r = describeReview(review);
    ASSERT_TRUE(r.has_value());
    TrustStore store(m_storePath);
    EXPECT_FALSE(store.decide(*r, {}).trusted());
    ASSERT_TRUE(store.add({TrustKind::Author, "alice", "", ""}).has_value());
    EXPECT_EQ(store.decide(*r, {}).reason, TrustReason::Author);
    EXPECT_FALSE(store.decide(subject("t"), {}).trusted());
    // A review someone else made is not trusted because a trusted author annotated it.
    auto other = ReviewFile::create(m_dir.file("m.klreview"), {defaultRubricJson(), "nki-migration.json", "mallory"});
    ASSERT_TRUE(other.has_value());
    ASSERT_TRUE(other->tasks().addFromFolder(makeTaskFolder(m_dir.path() / "m", "t1")).has_value());
    Annotation note;
    note.taskId = 1;
    note.text = "looks fine";
    note.author = "alice";
    ASSERT_TRUE(other->annotations().create(note).has_value());
    auto m = describeReview(*other);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->authors, std::vector<std::string>{"mallory"});
    EXPECT_FALSE(store.decide(*m, {}).trusted());
}

TEST_F(TrustStoreTest, RevokingAnEntryAsksAgainAndIsSaved) {
    const TrustSubject t = subject("t");
    {
        TrustStore store(m_storePath);
        ASSERT_TRUE(store.add(contentTrust(t)).has_value());
        ASSERT_TRUE(store.add({TrustKind::Author, "alice", "", ""}).has_value());
        ASSERT_TRUE(store.add(contentTrust(t)).has_value()); // the same entry again replaces it
        ASSERT_TRUE(store.save().has_value());
    }
    struct stat info {};
    ASSERT_EQ(::stat(m_storePath.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u) << "only the owner may read or change what is trusted";
    auto loaded = TrustStore::load(m_storePath);
    ASSERT_TRUE(loaded.has_value()) << formatError(loaded.error());
    ASSERT_EQ(loaded->entries().size(), 2u);
    EXPECT_EQ(loaded->decide(t, {}).reason, TrustReason::Content);
    EXPECT_TRUE(loaded->remove(TrustKind::Content, t.contentHash));
    EXPECT_FALSE(loaded->remove(TrustKind::Content, t.contentHash));
    ASSERT_TRUE(loaded->save().has_value());
    auto again = TrustStore::load(m_storePath);
    ASSERT_TRUE(again.has_value());
    EXPECT_FALSE(again->decide(t, {}).trusted());
    EXPECT_EQ(again->entries().size(), 1u);
}

TEST_F(TrustStoreTest, BroadFoldersAndUnprintableValuesAreRefused) {
    TrustStore store(m_storePath);
    EXPECT_FALSE(store.add({TrustKind::Folder, "/", "", ""}).has_value());
    EXPECT_FALSE(store.add({TrustKind::Folder, fs::temp_directory_path().string(), "", ""}).has_value());
    EXPECT_FALSE(store.add({TrustKind::Folder, fs::temp_directory_path().string() + "/.", "", ""}).has_value());
    EXPECT_FALSE(store.add({TrustKind::Author, "", "", ""}).has_value());
    EXPECT_FALSE(store.add({TrustKind::Author, "ana\x1b[31m", "", ""}).has_value());
    EXPECT_FALSE(store.add({TrustKind::Content, "sha256:abc", "", ""}).has_value());
    EXPECT_TRUE(store.entries().empty());
}

struct HostileStore {
    const char* name;
    std::string text;
    const char* expected; ///< part of the message
};

void PrintTo(const HostileStore& store, std::ostream* out) {
    *out << store.name;
}

class HostileTrustStoreTest : public ::testing::TestWithParam<HostileStore> {};

TEST_P(HostileTrustStoreTest, IsRefusedWithAMessageThatNamesTheFile) {
    TempDir dir;
    const fs::path path = dir.path() / "trust.json";
    writeBytes(path.string(), GetParam().text);
    auto store = TrustStore::load(path);
    ASSERT_FALSE(store.has_value());
    const std::string message = formatError(store.error());
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
    auto aside = TrustStore::setAside(path);
    ASSERT_TRUE(aside.has_value());
    EXPECT_FALSE(fs::exists(path));
    EXPECT_TRUE(TrustStore::load(path).has_value()) << "a fresh store can be written in its place";
}

const std::string kHash = "sha256:" + std::string(64, 'a');

INSTANTIATE_TEST_SUITE_P(
    Files, HostileTrustStoreTest,
    ::testing::Values(
        HostileStore{"empty", "", "not a JSON object"},
        HostileStore{"notJson", "{ trust everything", "not a JSON object"},
        HostileStore{"array", "[]", "not a JSON object"},
        HostileStore{"noFormat", R"({"entries": []})", "not format 1"},
        HostileStore{"newerFormat", R"({"format": 2, "entries": []})", "not format 1"},
        HostileStore{"hugeFormat", R"({"format": 1e999, "entries": []})", "not a JSON object"},
        HostileStore{"entriesNotAList", R"({"format": 1, "entries": {"kind": "folder"}})", "'entries'"},
        HostileStore{"entryNotObject", R"({"format": 1, "entries": ["/"]})", "entry 0"},
        HostileStore{"valueNotString", R"({"format": 1, "entries": [{"kind": "author", "value": 7}]})",
                     "'value' must be a string"},
        HostileStore{"unknownKind", R"({"format": 1, "entries": [{"kind": "everything", "value": "x"}]})",
                     "'kind' must be"},
        HostileStore{"unknownField", R"({"format": 1, "entries": [{"kind": "author", "value": "x", "run": "1"}]})",
                     "unknown field"},
        HostileStore{"shortHash", R"({"format": 1, "entries": [{"kind": "content", "value": "sha256:00"}]})",
                     "64 lower-case hex"},
        HostileStore{"relativeFolder", R"({"format": 1, "entries": [{"kind": "folder", "value": "tasks"}]})",
                     "absolute"},
        HostileStore{"rootFolder", R"({"format": 1, "entries": [{"kind": "folder", "value": "/"}]})", "absolute"},
        HostileStore{"dotDotFolder", R"({"format": 1, "entries": [{"kind": "folder", "value": "/home/../etc"}]})",
                     "normalized"},
        HostileStore{"escapeInAuthor", R"({"format": 1, "entries": [{"kind": "author", "value": "ana\u001b[2J"}]})",
                     "control"},
        HostileStore{"notUtf8",
                     std::string(R"({"format": 1, "entries": [{"kind": "author", "value": ")") + "\xff\xfe" + "\"}]}",
                     "not a JSON object"},
        HostileStore{"deeplyNested", std::string(200'000, '['), "not a JSON object"},
        HostileStore{"tooBig", R"({"format": 1, "entries": [], "pad": ")" + std::string(5u << 20, ' ') + "\"}",
                     "larger than"},
        HostileStore{"secondEntryBad",
                     R"({"format": 1, "entries": [{"kind": "content", "value": ")" + kHash +
                         R"("}, {"kind": "folder", "value": 3}]})",
                     "entry 1"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TrustStoreFileTest, ADirectoryInPlaceOfTheStoreIsRefused) {
    TempDir dir;
    fs::create_directories(dir.path() / "trust.json");
    auto store = TrustStore::load(dir.path() / "trust.json");
    ASSERT_FALSE(store.has_value());
    EXPECT_NE(formatError(store.error()).find("not a regular file"), std::string::npos);
}

} // namespace
} // namespace kl::core::test

// views::EditUndoCommand, the one QUndoCommand adapter for every review edit (issue 22): a link edit on a QUndoStack
// is undone and redone like any other edit, a command whose apply fails is dropped from the stack (and reported),
// and a command whose target was rebuilt (owner token dropped) does nothing and is dropped.
#include "common/EditUndoCommand.h"

#include "source/LinkSet.h"

#include <QUndoStack>
#include <QtTest>

#include <memory>

using kl::core::AddLinkCommand;
using kl::core::LineLink;
using kl::core::LinkSet;
using kl::core::RemoveLinkCommand;
using kl::views::EditUndoCommand;

namespace {

LineLink link(int cuda, int nki) {
    LineLink l;
    l.cudaFirst = l.cudaLast = cuda;
    l.nkiFirst = l.nkiLast = nki;
    return l;
}

struct Counters {
    int changed = 0;
    int failed = 0;
};

EditUndoCommand<LinkSet>* wrap(LinkSet& set, std::unique_ptr<kl::core::LinkCommand> command, Counters& c) {
    return new EditUndoCommand<LinkSet>(
        std::move(command), [&set] { return &set; }, [&c] { ++c.changed; }, [&c](const kl::Error&) { ++c.failed; });
}

} // namespace

class EditUndoCommandTest : public QObject {
    Q_OBJECT

private slots:
    void linkEditsUndoAndRedoOnTheStack() {
        LinkSet set;
        QUndoStack stack;
        Counters c;
        stack.push(wrap(set, std::make_unique<AddLinkCommand>(link(3, 10)), c));
        stack.push(wrap(set, std::make_unique<AddLinkCommand>(link(5, 12)), c));
        QCOMPARE(set.entries().size(), std::size_t(2));
        QCOMPARE(stack.count(), 2);
        QVERIFY(stack.undoText().contains(QStringLiteral("Link")));
        stack.undo();
        QCOMPARE(set.entries().size(), std::size_t(1));
        stack.undo();
        QCOMPARE(set.entries().size(), std::size_t(0));
        stack.redo();
        stack.redo();
        QCOMPARE(set.entries().size(), std::size_t(2));
        QCOMPARE(c.changed, 6);
        QCOMPARE(c.failed, 0);
    }

    void aFailedApplyIsDroppedAndReported() {
        LinkSet set;
        QUndoStack stack;
        Counters c;
        stack.push(wrap(set, std::make_unique<RemoveLinkCommand>(42), c)); // no such link
        QCOMPARE(c.failed, 1);
        QCOMPARE(stack.count(), 0);
        QCOMPARE(set.entries().size(), std::size_t(0));
    }

    void aStaleCommandDoesNothing() {
        LinkSet set;
        QUndoStack stack;
        Counters c;
        auto owner = std::make_shared<const int>(0);
        auto* command = wrap(set, std::make_unique<AddLinkCommand>(link(1, 1)), c);
        command->bindTo(owner);
        stack.push(command);
        QCOMPARE(set.entries().size(), std::size_t(1));
        owner.reset(); // the link set was rebuilt for other sources
        stack.undo();
        QCOMPARE(set.entries().size(), std::size_t(1)); // untouched
        QCOMPARE(c.failed, 0);
    }
};

QTEST_MAIN(EditUndoCommandTest)
#include "EditUndoCommandTest.moc"

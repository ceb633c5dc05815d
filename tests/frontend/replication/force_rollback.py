"""The front end with every replicated loop's last iteration judged a mismatch, so that the roll-back path runs
after the early decision or the later one (test_replication.py: the IR must still be plain tracing's).
Usage: force_rollback.py FRONTEND_DIR kltrace arguments..."""
import sys

sys.path.insert(0, sys.argv[1])  # the front end's folder, known only now
from kltrace import replicate
from kltrace.cli import main


def _mismatch(self):
    return False


replicate._Replicator.finish_last = _mismatch
sys.exit(main(sys.argv[2:]))

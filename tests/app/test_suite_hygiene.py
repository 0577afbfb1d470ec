"""The suite's own check that nothing is left behind (tests/conftest.py) can fail, and then still exits.

Two throwaway test files run in a separate pytest with this suite's conftest as
a plugin: one closes what it opens, the other leaves a thread waiting forever
and a child process sleeping. The run must fail at the second file only, name
both, stop the process and end on its own (without the check, the waiting
thread would keep the interpreter from ever exiting).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LEAKY = """
import subprocess
import threading

never = threading.Event()


def test_opens_and_forgets():
    threading.Thread(target=never.wait, name="forgotten-worker").start()
    subprocess.Popen(["sleep", "600"])


def test_after_it_in_the_same_file():
    assert True
"""

TIDY = """
import subprocess
import threading


def test_opens_and_closes():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="closed-worker")
    thread.start()
    child = subprocess.Popen(["sleep", "600"])
    stop.set()
    thread.join()
    child.kill()
    child.wait()
"""


def test_a_file_that_leaves_a_thread_and_a_process_fails_names_them_and_exits(tmp_path):
    (tmp_path / "test_a_tidy.py").write_text(textwrap.dedent(TIDY))
    (tmp_path / "test_b_leaky.py").write_text(textwrap.dedent(LEAKY))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LEAK_GRACE": "1"}  # the leaks here never end
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest"]
    done = subprocess.run(
        [*command, "--rootdir", str(tmp_path), "-rE", "test_a_tidy.py", "test_b_leaky.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # without the check this run would never end
    )
    out = done.stdout
    assert done.returncode != 0, out
    assert "3 passed" in out and "1 error" in out, out  # every test passed; the leaky file failed
    assert "ERROR test_b_leaky.py::test_after_it_in_the_same_file" in out, out
    assert "left behind" in out and "'forgotten-worker'" in out and "sleep 600" in out, out
    assert "closed-worker" not in out

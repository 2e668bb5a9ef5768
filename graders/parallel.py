"""Grade one batch in several processes: one pytest session per job, on a share of students.

Each job is a ``grade run --jobs 1 --no-index`` subprocess on its share; it writes each student's
JSON and HTML as usual, and the parent picks the results up from those JSON twins (checked
against the same input digests) as they appear. A job that dies leaves its unfinished students
as grader errors, never as zeros.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from graders.report import ReportWriter
from graders.results import SubmissionResult
from graders.submissions import Submission

POLL_SECONDS = 0.5


def job_command(request, share: list[Submission]) -> list[str]:  # noqa: ANN001 - BatchRequest
    command = [sys.executable, "-m", "graders.cli", "run", "--jobs", "1", "--no-index",
               "--fresh", "--assignment", request.pack.id, "--out", str(request.out_dir),
               "--pack-digest", request.pack_digest, "--as-submissions"]
    if request.due is not None:
        command += ["--due", request.due.strftime("%Y-%m-%dT%H:%M:%S%z")]
    if request.isolation is not None:
        command += ["--isolation", request.isolation.value]
    return command + [str(submission.source) for submission in share]


def grade_in_jobs(
    request,  # noqa: ANN001 - BatchRequest (imported lazily to avoid a cycle)
    pending: list[Submission],
    writer: ReportWriter,
    on_result: Callable[[SubmissionResult], None],
) -> tuple[list[Submission], str]:
    """Run the jobs; returns the submissions no job produced a result for, and what the
    failed jobs printed on stderr (for the grader-error message)."""
    jobs = max(1, min(request.jobs, len(pending)))
    shares = [pending[index::jobs] for index in range(jobs)]
    logs = [tempfile.TemporaryFile() for _ in shares]  # noqa: SIM115 - closed below
    processes = [
        subprocess.Popen(job_command(request, share), stdout=subprocess.DEVNULL,  # noqa: S603
                         stderr=log)
        for share, log in zip(shares, logs, strict=True)
    ]
    waiting = list(pending)
    while waiting:
        running = any(process.poll() is None for process in processes)
        for submission in list(waiting):
            result = writer.cached(submission, any_status=True)
            if result is not None:
                waiting.remove(submission)
                on_result(result)
        if not running:
            break
        time.sleep(POLL_SECONDS)
    failures = []
    for process, log in zip(processes, logs, strict=True):
        log.seek(0)
        if process.returncode not in (0, 1):
            tail = log.read().decode("utf-8", "replace")[-1500:]
            failures.append(f"job exited with status {process.returncode}: {tail}")
        log.close()
    return waiting, "\n".join(failures)

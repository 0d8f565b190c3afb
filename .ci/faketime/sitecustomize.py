"""Loaded by every Python process of the moved-clock runs (PYTHONPATH=.ci/faketime).

libfaketime 0.9.10 (Debian 12) with FAKETIME_DONT_FAKE_MONOTONIC=1 shifts the absolute
deadline of clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) as if the monotonic clock were
faked, and the kernel answers EINVAL: Python's time.sleep raises OSError. Keeping the
monotonic clock faked instead hangs every lock or Event wait with a timeout. So the
monotonic clock stays real and time.sleep waits with select(), which takes a relative
timeout and is untouched by the moved wall clock.
"""

import os
import select
import time

if "faketime" in os.environ.get("LD_PRELOAD", ""):

    def _sleep(seconds: float) -> None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            select.select([], [], [], left)

    time.sleep = _sleep

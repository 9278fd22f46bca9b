import { ManualClock, type Clock } from './clock.js';

/** setTimeout's longest delay; a later time is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Calls `fire` once `clock` reaches `time` (at once, but not synchronously, when it has);
 * returns the cancel. On the system clock a timer waits for it; the manual clock has no
 * timers, so its moves are watched instead (POST /_test/clock, or catching up with a move
 * another process made). The timer does not keep the process alive.
 */
export function atTime(clock: Clock, time: number, fire: () => void): () => void {
  let done = false;
  const due = () => {
    if (done || clock.now() < time) return false;
    done = true;
    cancel();
    fire();
    return true;
  };
  let cancel: () => void;
  if (clock instanceof ManualClock) {
    cancel = clock.onMove(due);
  } else {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      timer = setTimeout(() => due() || wait(), Math.min(Math.max(time - clock.now(), 0), MAX_DELAY_MS));
      timer.unref();
    };
    wait();
    cancel = () => clearTimeout(timer);
  }
  if (clock.now() >= time) queueMicrotask(due);
  return () => {
    done = true;
    cancel();
  };
}

/**
 * Waiting on a worker that may be busy, slow or stuck: the two timers a worker handle needs
 * beyond plain `setTimeout`.
 */

/**
 * Call `late` once a whole period of `ms` has begun and ended with `busy()` false. A worker busy
 * with calls answers when they let it (their own time limits bound that), so it is taken for
 * stuck only after a period that starts and ends with it idle. Returns what cancels the wait.
 */
export function idlePeriod(ms: number, busy: () => boolean, late: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wasBusy = false;
  const arm = () => {
    timer = setTimeout(() => {
      const now = busy();
      if (now || wasBusy) {
        wasBusy = now;
        arm();
        return;
      }
      late();
    }, ms);
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * Call `then` once every message already waiting for this thread has been handled. A timer may
 * run before messages that wait in the queue (a busy page); a message of the thread's own,
 * posted now, is read after everything posted to it before.
 */
export function afterQueuedMessages(then: () => void): void {
  const channel = new MessageChannel();
  channel.port2.onmessage = () => {
    channel.port2.close();
    then();
  };
  channel.port1.postMessage(null);
}

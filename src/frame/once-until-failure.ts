/** What `onceUntilFailure` returns: ask for the value; see what is kept; forget it. */
export interface Kept<T> {
  (): Promise<T>;
  /** What is kept now, if anything (nothing is started). */
  readonly current: Promise<T> | undefined;
  /** Forget what is kept (only `which`, when given: a newer load stays); the next ask starts again. */
  forget(which?: Promise<T>): void;
}

/**
 * `load`, started when first asked and its promise kept; after a failure, the next ask starts it
 * again (those already waiting are told the failure).
 */
export function onceUntilFailure<T>(load: () => Promise<T>): Kept<T> {
  let current: Promise<T> | undefined;
  const forget = (which?: Promise<T>) => {
    if (which === undefined || current === which) current = undefined;
  };
  const ask = () => {
    if (current) return current;
    const started = load();
    current = started;
    started.catch(() => forget(started));
    return started;
  };
  return Object.defineProperties(ask, {
    current: { get: () => current },
    forget: { value: forget },
  }) as Kept<T>;
}

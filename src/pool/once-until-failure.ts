/**
 * `load`, started when first asked and its promise kept; after a failure, the next ask starts it
 * again (those already waiting are told the failure).
 */
export function onceUntilFailure<T>(load: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    if (current) return current;
    const started = load();
    current = started;
    started.catch(() => {
      if (current === started) current = undefined;
    });
    return started;
  };
}

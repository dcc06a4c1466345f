/**
 * A stand-in for the code sandbox's runtime (src/sandbox/runtime.ts) that says whatever it is
 * told, as a runtime a script had taken over would: the value of each run's script is a list of
 * messages, posted on the run's port as they are. `first` replaces its `ready` when given.
 * It is sent as text, so the function stands alone.
 */
function hostileRuntime(first: unknown): void {
  const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null };
  scope.onmessage = (event) => {
    scope.onmessage = null;
    const port = event.ports[0] as MessagePort;
    port.postMessage(first === undefined ? { t: 'ready' } : first);
    port.onmessage = async (e: MessageEvent) => {
      if (e.data?.t !== 'run') return;
      // biome-ignore lint/security/noGlobalEval: this worker runs what the test wrote, as the runtime would
      const evaluate = eval;
      const said = (await evaluate(e.data.code)) as unknown[];
      for (const message of said) port.postMessage(message);
    };
  };
}

/** The worker's script: the stand-in, called (with `first` instead of `ready`, if given). */
export function hostileRuntimeSource(first?: unknown): string {
  return `(${hostileRuntime.toString()})(${first === undefined ? 'undefined' : JSON.stringify(first)})`;
}

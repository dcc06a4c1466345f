/**
 * What a chat tells the developer in the console: a misconfiguration (a pool that cannot start or
 * is refused the network, a thread lost for want of a checkpointer) and a tool that crashed. On
 * by default in development, off in a production build, as the `warnings` option says.
 */
import type { AgentEvent } from '../agent/types';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { ModelHTTPError } from '../errors/model-http-error';
import { PoolQueueFullError } from '../errors/pool-queue-full-error';
import { toolFailure } from '../errors/tool-failure';
import { WorkerStartError } from '../errors/worker-start-error';

/**
 * `process.env.NODE_ENV` as a bundler writes it: webpack, Vite, esbuild (minifying or told to)
 * and Rollup's replace plugin put the mode's string in its place, as React's builds rely on. With
 * no bundler there is no `process` in a browser: that is not a production build.
 */
declare const process: { env: { NODE_ENV?: string } };

function productionBuild(): boolean {
  try {
    return process.env.NODE_ENV === 'production';
  } catch {
    return false;
  }
}

export type WarningsOption = 'console' | 'off';

/** The warnings of one chat: each said once (by kind and tool), to `console.warn`. */
export class DevWarnings {
  readonly #on: boolean;
  readonly #said = new Set<string>();

  constructor(option: WarningsOption | undefined) {
    this.#on = option === undefined ? !productionBuild() : option === 'console';
  }

  /** The chat's own warning (a lost thread, say), with the error that says it. */
  warn(key: string, error: Error): void {
    if (!this.#on || this.#said.has(key)) return;
    this.#said.add(key);
    console.warn(`[moat-sdk] ${error.message}`, error);
  }

  /** What of an agent's event the developer must hear: a crashed tool, a misconfiguration. */
  event(event: AgentEvent): void {
    if (!this.#on) return;
    if (event.type === 'tool-error') {
      const { kind } = toolFailure(event.error);
      // A full queue is load (as a 429 is), not something the app's code or settings fix.
      if (
        kind === 'crashed' ||
        kind === 'network-denied' ||
        (kind === 'unavailable' && !PoolQueueFullError.isInstance(event.error))
      )
        this.warn(`${kind}:${(event.error as { toolName?: unknown }).toolName ?? event.message?.name}`, event.error);
    } else if (event.type === 'error' && misconfigured(event.error)) this.warn(`run:${event.error.name}`, event.error);
  }
}

/** A run's error that a change of the app's code or settings fixes, not a try again. */
function misconfigured(error: unknown): boolean {
  if (WorkerStartError.isInstance(error) || InvalidToolSpecError.isInstance(error) || error instanceof TypeError)
    return true;
  return ModelHTTPError.isInstance(error) && [401, 403, 404].includes(error.status);
}

/**
 * How the tools module's copy of `moat-sdk/worker` finds Moat's runtime in a sealed worker: the
 * runtime, evaluated first (`./sealed-runtime`), leaves its `serveCatalog` on the worker's global
 * under this key, non-writable and non-configurable, so nothing evaluated after it can replace it.
 * A plain worker has none, and its `moat-sdk/worker` serves the tools itself.
 */
import type { ToolCatalog } from './tool-server';

const KEY = Symbol.for('moat.runtime');

type Serve = (catalog: ToolCatalog) => void;

/** Called once, by the sealed runtime, before any module of the tools is evaluated. */
export function installSealedRuntime(serve: Serve): void {
  Object.defineProperty(globalThis, KEY, { value: serve, writable: false, enumerable: false, configurable: false });
}

/** The sealed runtime's way to serve tools, where one runs. */
export function sealedRuntime(): Serve | undefined {
  const serve = Object.getOwnPropertyDescriptor(globalThis, KEY)?.value;
  return typeof serve === 'function' ? (serve as Serve) : undefined;
}

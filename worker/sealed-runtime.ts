/// <reference lib="webworker" />
/**
 * Moat's runtime for a sealed worker, the script the frame's loader evaluates in each worker
 * before any module of the tools (bundled into the package as text: see `sealedWorkers`). It
 * takes the built-ins it relies on, installs the network guard and takes the realm's locks (the
 * only `postMessage`, the page's messages and the port they come on, the death watch), then waits
 * for the tools: the tools module's own `moat-sdk/worker` hands them over (`serveTools`) instead of
 * taking anything itself. So no module of the tools, even one evaluated before its
 * `moat-sdk/worker`, ever holds the port to the page or the original built-ins.
 */
import { installNetworkGuard } from './network-guard';
import { lockRealm } from './realm-locks';
import { installSealedRuntime } from './sealed-runtime-hook';
import { serveCatalog } from './tool-server';

installNetworkGuard();
lockRealm();
installSealedRuntime(serveCatalog);

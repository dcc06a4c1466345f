// A tools bundle as webpack splits a worker's dependencies off: it loads a chunk with
// importScripts before serving, which a sealed worker (a module, at an opaque origin) cannot.
import { serveTools } from 'moat-sdk/worker';

(self as unknown as { importScripts(url: string): void }).importScripts('./824.js');
serveTools([]);

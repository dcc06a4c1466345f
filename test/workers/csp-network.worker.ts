/// <reference lib="webworker" />
// Served with a Content-Security-Policy header (see vite.config.ts): import() is closed too.
import { serveTools } from 'moat-sdk/worker';
import { probe } from './network-probe';

serveTools([probe]);

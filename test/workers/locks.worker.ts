/// <reference lib="webworker" />
// A tool module imported after moat-sdk/worker, before serveTools, that tampers with the realm.
import { serveTools } from 'moat-sdk/worker';
import { lockTools } from './locks-tamper';

serveTools(lockTools);

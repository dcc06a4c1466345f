/// <reference lib="webworker" />
// A tool module imported after moat/worker, before serveTools, that tampers with the realm.
import { serveTools } from 'moat/worker';
import { lockTools } from './locks-tamper';

serveTools(lockTools);

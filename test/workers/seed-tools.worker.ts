/// <reference lib="webworker" />
// The seed scenarios' tools, served from a worker for the invoker's browser tests.
import { serveTools } from 'moat-sdk/worker';
import { seedTools } from '../seed-tools';

serveTools(seedTools);

/// <reference lib="webworker" />
// A module that ran before moat-sdk/worker made postMessage impossible to lock (a side-effect import: it stays first).
import './locks-unlockable';
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';

serveTools([defineTool({ name: 'noop', description: 'Nothing.', input: z.object({}), run: () => 'ran' })]);

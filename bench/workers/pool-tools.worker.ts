/// <reference lib="webworker" />
// The pool benchmarks' tools with zod (classic) schemas: what most tool code imports.
import { serveTools } from 'moat-sdk/worker';
import * as z from 'zod';
import { poolTools } from './pool-tools';

serveTools(poolTools({ number: z.object({ i: z.number() }), empty: z.object({}), ms: z.object({ ms: z.number() }) }));

/// <reference lib="webworker" />
// The pool benchmarks' tools with zod/mini schemas (a smaller worker to load).
import { serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import { poolTools } from './pool-tools';

serveTools(poolTools({ number: z.object({ i: z.number() }), empty: z.object({}), ms: z.object({ ms: z.number() }) }));

/// <reference lib="webworker" />
// The pool-tools-mini worker's script without serving: loads and evaluates the same code (moat-sdk/worker,
// zod/mini, the tools), then posts one message. The anchor for the pool's own start-up cost.
// biome-ignore assist/source/organizeImports: early-post must be evaluated before moat-sdk/worker locks postMessage
import { post } from './early-post';
import { serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import { poolTools } from './pool-tools';

const tools = poolTools({ number: z.object({ i: z.number() }), empty: z.object({}), ms: z.object({ ms: z.number() }) });
// Never true: keeps serveTools (and all it imports) in the bundle without running it.
if (tools.length === 0) serveTools(tools);
post(tools.length);

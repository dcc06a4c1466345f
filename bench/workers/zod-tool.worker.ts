/// <reference lib="webworker" />
// The least a tool worker validating with zod can do: load zod/mini, build the pool benchmark
// tools' three schemas, validate the first message against one and answer it. No pool, no
// guard, no protocol: the floor a pool's cold start is compared with.
import * as z from 'zod/mini';

const schemas = { number: z.object({ i: z.number() }), empty: z.object({}), ms: z.object({ ms: z.number() }) };
self.onmessage = (event) => {
  const parsed = z.safeParse(schemas.number, event.data);
  self.postMessage(parsed.success ? parsed.data.i : null);
};

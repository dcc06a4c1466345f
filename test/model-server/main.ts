/**
 * The model server on its own (Playwright's webServer, or by hand next to `npm start`):
 * `node --import tsx test/model-server/main.ts [port]`.
 */
import { startModelServer } from './server';

const port = Number(process.argv[2] ?? 4180);
const server = await startModelServer({ port });
console.log(`model server listening on ${server.url}`);

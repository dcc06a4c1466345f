/**
 * The `--command` the conformance CLI runs for a client scenario (`… <server-url>`): it hands the
 * URL to scripts/mcp-conformance.ts (at MOAT_CONFORMANCE_DRIVER), which runs Moat's MCP client
 * against it in Chromium, and prints what the client did. Exits 1 when the client failed to
 * connect or list, or a call threw.
 */
import type { ClientRun } from './types.ts';

const url = process.argv.at(-1);
const driver = process.env.MOAT_CONFORMANCE_DRIVER;
if (!url || !driver) {
  console.error('usage: MOAT_CONFORMANCE_DRIVER=<url> client-command.ts <server-url>');
  process.exit(2);
}
const response = await fetch(driver, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ url, scenario: process.env.MCP_CONFORMANCE_SCENARIO }),
});
if (!response.ok) {
  console.error(`The harness answered HTTP ${response.status}: ${await response.text()}`);
  process.exit(2);
}
const run = (await response.json()) as ClientRun;
console.log(JSON.stringify(run, null, 2));
process.exit(run.error || run.calls.some((call) => call.status === 'threw') ? 1 : 0);

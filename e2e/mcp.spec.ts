import { MCP_SERVER, MODEL_SERVER } from '../playwright.config';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

test('an MCP server added in Settings: a CORS refusal explained, then its tools used in the chat and kept over a reload', async ({
  page,
  expectConsoleErrors,
}) => {
  // The browser logs the refused request itself.
  expectConsoleErrors(/CORS|Access-Control|ERR_FAILED/);
  const id = `mcp-${Math.random().toString(36).slice(2, 10)}`;
  const made = await fetch(`${MODEL_SERVER}/_scenarios`, {
    method: 'POST',
    body: JSON.stringify({
      id,
      apiKey: 'sk-test-key',
      delayMs: 5,
      turns: [
        { toolCalls: [{ name: 'echo', args: { text: 'from the demo' } }] },
        { text: 'The server said {{results}}.' },
      ],
    }),
  });
  expect(made.ok).toBe(true);
  await page.goto('./');
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Model' });
  const mcp = dialog.getByRole('group', { name: 'MCP servers' });

  await mcp.getByLabel('Server URL').fill(`${MCP_SERVER}/no-cors/mcp`);
  await mcp.getByRole('button', { name: 'Add server' }).click();
  await expect(mcp.getByTestId('mcp-result')).toContainText('Access-Control-Allow-Origin: *');
  await expect(mcp.getByRole('listitem')).toHaveCount(0);

  await mcp.getByLabel('Server URL').fill(`${MCP_SERVER}/mcp`);
  await mcp.getByRole('button', { name: 'Add server' }).click();
  await expect(mcp.getByTestId('mcp-result')).toContainText('Connected: 9 tools (');
  await expect(mcp.getByRole('listitem')).toContainText([`${MCP_SERVER}/mcp`]);

  await dialog.getByLabel('Talk to').selectOption('openai');
  const endpoint = dialog.getByRole('group', { name: 'OpenAI-compatible endpoint' });
  await endpoint.getByLabel('Base URL').fill(`${MODEL_SERVER}/v1`);
  await endpoint.getByLabel('Model', { exact: true }).fill(id);
  await endpoint.getByLabel(/API key/).fill('sk-test-key');
  await dialog.getByRole('button', { name: 'Save' }).click();

  await ask(page, 'Echo something through MCP');
  await expect(cards(page, 'echo').getByTestId('tool-result')).toContainText('echo: from the demo');
  await expect(lastAnswer(page)).toContainText('The server said echo: from the demo.');
  await idle(page);

  await page.reload();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(mcp.getByRole('listitem')).toContainText([`${MCP_SERVER}/mcp`]);
  await mcp.getByRole('button', { name: `Remove ${MCP_SERVER}/mcp` }).click();
  await expect(mcp.getByRole('listitem')).toHaveCount(0);
});

test('an MCP server that wants OAuth: Add server opens the sign-in window, which comes back to the demo and closes; after a reload it connects without one', async ({
  page,
  context,
  expectConsoleErrors,
}) => {
  // The browser logs the server's first answer, a 401, itself.
  expectConsoleErrors(/401|Unauthorized/);
  await fetch(`${MCP_SERVER}/__reset`, { method: 'POST' });
  const windows: string[] = [];
  context.on('page', (opened) => windows.push(opened.url()));
  await page.goto('./');
  await page.getByRole('button', { name: 'Settings' }).click();
  const mcp = page.getByRole('dialog', { name: 'Model' }).getByRole('group', { name: 'MCP servers' });
  await mcp.getByLabel('Server URL').fill(`${MCP_SERVER}/oauth/mcp`);
  const popup = page.waitForEvent('popup');
  await mcp.getByRole('button', { name: 'Add server' }).click();
  const signIn = await popup;
  // It went to the authorization server, and came back to oauth-callback.html, which closed it.
  await signIn.waitForEvent('close');
  await expect(mcp.getByTestId('mcp-result')).toContainText('Connected: 9 tools (');
  const asked = (await (await fetch(`${MCP_SERVER}/__oauth/log`)).json()) as { path: string }[];
  expect(asked.map((r) => r.path)).toEqual(expect.arrayContaining(['/register', '/authorize', '/token']));
  expect(windows).toHaveLength(1);

  const log = async () =>
    ((await (await fetch(`${MCP_SERVER}/__log`)).json()) as { path: string; jsonrpcMethod?: string }[]).filter(
      (r) => r.path === '/oauth/mcp',
    );
  const before = (await log()).length;
  await page.reload();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(mcp.getByRole('listitem')).toContainText([`${MCP_SERVER}/oauth/mcp`]);
  // The tokens were kept (IndexedDB): the tools are listed again, with no second window.
  await expect
    .poll(async () => (await log()).slice(before).map((r) => r.jsonrpcMethod))
    .toEqual(expect.arrayContaining(['initialize', 'tools/list']));
  expect(windows).toHaveLength(1);
  await mcp.getByRole('button', { name: `Remove ${MCP_SERVER}/oauth/mcp` }).click();
  await expect(mcp.getByRole('listitem')).toHaveCount(0);
});

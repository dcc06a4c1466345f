import type { Page } from '@playwright/test';
import { MODEL_SERVER } from '../playwright.config';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

/** Register a scripted conversation on the model server; its id is the model name to ask for. */
async function scenario(turns: unknown[], apiKey = 'sk-test-key'): Promise<string> {
  const id = `demo-${Math.random().toString(36).slice(2, 10)}`;
  const res = await fetch(`${MODEL_SERVER}/_scenarios`, {
    method: 'POST',
    body: JSON.stringify({ id, apiKey, turns, delayMs: 5 }),
  });
  expect(res.ok).toBe(true);
  return id;
}

const requestsOf = async (id: string) =>
  (await (await fetch(`${MODEL_SERVER}/_requests/${id}`)).json()) as {
    path: string;
    headers: Record<string, string>;
    body: { tools?: { function: { name: string } }[]; messages: { role: string; content?: unknown }[] };
    answer: number | 'stream';
  }[];

async function openSettings(page: Page, fields: { baseURL: string; model: string; key: string }) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Model' });
  await dialog.getByLabel('Talk to').selectOption('openai');
  const endpoint = dialog.getByRole('group', { name: 'OpenAI-compatible endpoint' });
  await endpoint.getByLabel('Base URL').fill(fields.baseURL);
  await endpoint.getByLabel('Model', { exact: true }).fill(fields.model);
  await endpoint.getByLabel(/API key/).fill(fields.key);
  return dialog;
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
});

test('an OpenAI-compatible endpoint (the test server) runs a full turn: tool call in a worker, then the answer', async ({
  page,
  expectConsoleErrors,
}) => {
  // The 401 the test provokes is logged by the browser itself.
  expectConsoleErrors(/status of 401/);
  const model = await scenario([
    { toolCalls: [{ name: 'calculator', args: { expression: '3 * 12' } }] },
    { text: 'The calculator says {{results}}.' },
  ]);
  const dialog = await openSettings(page, { baseURL: `${MODEL_SERVER}/v1`, model, key: 'sk-wrong' });
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByTestId('connection-result')).toContainText('The server refused the key (401)');
  await dialog
    .getByRole('group', { name: 'OpenAI-compatible endpoint' })
    .getByLabel(/API key/)
    .fill('sk-test-key');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByTestId('connection-result')).toHaveText('Connected. The model said: (a call of calculator)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('model')).toHaveText(`${model} · 127.0.0.1:4180`);

  await ask(page, 'What is 3 * 12?');
  await expect(cards(page, 'calculator').getByTestId('tool-result')).toContainText('"result": 36');
  await expect(lastAnswer(page)).toContainText('The calculator says {"expression":"3 * 12","result":36}.');
  await idle(page);

  const requests = (await requestsOf(model)).filter((r) => r.answer === 'stream');
  const [first, second] = requests.slice(-2);
  expect(first?.headers.authorization).toBe('Bearer sk-test-key');
  expect(requests.every((r) => !r.path.includes('sk-test-key'))).toBe(true);
  expect(first?.body.tools?.map((t) => t.function.name)).toContain('delete_note');
  expect(second?.body.messages.at(-1)).toMatchObject({ role: 'tool' });
  // The key stays in this browser, and "Forget keys" removes it.
  expect(await page.evaluate(() => localStorage.getItem('moat-demo-model-settings'))).toContain('sk-test-key');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Forget keys' }).click();
  await expect(page.getByRole('group', { name: 'OpenAI-compatible endpoint' }).getByLabel(/API key/)).toHaveValue('');
  expect(await page.evaluate(() => localStorage.getItem('moat-demo-model-settings'))).not.toContain('sk-test-key');
});

test('a failed model request shows inline with Retry, and Retry carries on', async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 400/);
  const model = await scenario([
    { text: 'Second time lucky.', faults: [{ status: 400, message: 'A scripted refusal.' }] },
  ]);
  const dialog = await openSettings(page, { baseURL: `${MODEL_SERVER}/v1`, model, key: 'sk-test-key' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await ask(page, 'Hello?');
  const alert = page.getByRole('log').getByRole('alert');
  await expect(alert).toContainText('A scripted refusal.');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(lastAnswer(page)).toContainText('Second time lucky.');
  await expect(page.getByRole('log').getByRole('alert')).toHaveCount(0);
  // One user message in the thread, not two (once the run has ended, and so saved it).
  await idle(page);
  await page.reload();
  await expect(page.getByTestId('user')).toHaveText(['Hello?']);
});

test('an endpoint that cannot be reached (down, or no CORS) says so plainly', async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/ERR_CONNECTION_REFUSED|Failed to fetch/);
  const dialog = await openSettings(page, { baseURL: 'http://127.0.0.1:4199/v1', model: 'any', key: '' });
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByTestId('connection-result')).toContainText(
    'Could not reach the openai-compatible server at http://127.0.0.1:4199/v1',
  );
  await expect(dialog.getByTestId('connection-result')).toContainText('does it allow requests from this page (CORS)?');
});

import { ask, cards, expect, idle, lastAnswer, recorded, recordTexts, test } from './fixtures';

test.beforeEach(async ({ page, expectConsoleErrors: _ }) => {
  await page.goto('./');
  await expect(page.getByTestId('model')).toHaveText('Offline demo model');
});

test('two questions: two cards whose arguments stream in, results 36 and 60, a final answer', async ({ page }) => {
  await recordTexts(page, '.tool-args');
  await ask(page, 'What is 3 * 12? Also, what is 11 + 49?');
  await expect(page.getByTestId('user').last()).toHaveText('What is 3 * 12? Also, what is 11 + 49?');
  const calc = cards(page, 'calculator');
  await expect(calc).toHaveCount(2);
  await expect(calc.nth(0).getByTestId('tool-result')).toContainText('"result": 36');
  await expect(calc.nth(1).getByTestId('tool-result')).toContainText('"result": 60');
  await expect(calc.nth(0)).toHaveAttribute('data-status', 'done');
  const answer = lastAnswer(page).getByTestId('answer');
  await expect(answer).toContainText('3 * 12 = 36');
  await expect(answer).toContainText('11 + 49 = 60');
  // The arguments were shown while they streamed: some states were partial objects.
  const texts = await recorded(page);
  expect(texts.some((t) => t.includes('"expression": "3') && !t.includes('"3 * 12"'))).toBe(true);
  // Side by side in one row.
  const [a, b] = [await calc.nth(0).boundingBox(), await calc.nth(1).boundingBox()];
  expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x).toBe(true);
  await idle(page);
});

test('Stop aborts an answer mid-stream and keeps what came', async ({ page }) => {
  await ask(page, 'Tell me a long story');
  const answer = lastAnswer(page).getByTestId('answer');
  await expect(answer).toContainText('Once upon a time');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(lastAnswer(page)).toContainText('Stopped.');
  await idle(page);
  const kept = await answer.textContent();
  expect(kept).not.toContain('The end.');
  await page.waitForTimeout(300);
  expect(await answer.textContent()).toBe(kept);
  // The conversation goes on.
  await ask(page, 'What is 2 + 2?');
  await expect(lastAnswer(page)).toContainText('2 + 2 = 4');
});

test('Stop while a tool runs: its card says Stopped, and the same after a reload', async ({ page }) => {
  await ask(page, 'Count the primes below 50,000,000');
  const card = cards(page, 'count_primes');
  await expect(card).toHaveAttribute('data-status', 'running');
  await page.getByRole('button', { name: 'Stop' }).click();
  const result = card.getByTestId('tool-result');
  await expect(result).toHaveText('StoppedStopped.');
  await idle(page);
  await page.reload();
  await expect(cards(page, 'count_primes').getByTestId('tool-result')).toHaveText('StoppedStopped.');
});

test('a hostile Markdown answer renders inert: no image, script, handler or javascript: link', async ({ page }) => {
  await ask(page, 'Show me a hostile markdown answer');
  await expect(lastAnswer(page)).toContainText('rendered inert');
  await idle(page);
  const log = page.getByRole('log');
  await expect(log.locator('img, script, iframe, [onerror], [onclick]')).toHaveCount(0);
  await expect(log.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(lastAnswer(page).locator('strong', { hasText: 'inert' })).toBeVisible();
  for (const link of await log.locator('a').all()) await link.click({ force: true, noWaitAfter: true });
  await page.waitForTimeout(200);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
});

test('fetch_url is denied by the pool, with the reason on its card', async ({ page }) => {
  await ask(page, 'Fetch https://example.com/');
  const card = cards(page, 'fetch_url');
  await expect(card).toHaveAttribute('data-status', 'error');
  await expect(card.getByTestId('tool-result')).toContainText('Not allowed to reach example.com.');
  await expect(lastAnswer(page)).toContainText('The request never left the worker');
  // The model's text (and the developer's console) says how to allow it.
  await expect(lastAnswer(page)).toContainText('To allow it, give createWorkerPool a network option');
});

// Sealed (the default) and with `?tools=plain`, workers of the page's own origin.
for (const [where, query] of [
  ['', ''],
  [' (plain workers)', '&tools=plain'],
]) {
  test(`a tool that hangs is stopped by its time limit; its worker is replaced and the next call works${where}`, async ({
    page,
  }) => {
    await page.goto(`./?toolTimeoutMs=1500${query}`);
    await ask(page, 'Run a busy loop for 600 seconds');
    const card = cards(page, 'busy_loop');
    await expect(card).toHaveAttribute('data-status', 'running');
    await expect(card).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
    await expect(card.getByTestId('tool-result')).toContainText('Timed out after 1.5 s.');
    await expect(page.getByTestId('workers')).toContainText('1 restarted');
    await idle(page);
    await ask(page, 'What is 6 * 7?');
    await expect(lastAnswer(page)).toContainText('6 * 7 = 42');
  });
}

test('a tool streams its output to its card as it works', async ({ page }) => {
  await recordTexts(page, '.tool-output');
  await ask(page, 'Echo slowly: one two three four five');
  const output = cards(page, 'slow_echo').getByTestId('tool-output');
  await expect(output).toHaveText('one two three four five ');
  // Word by word, while the tool ran: each state once, in order.
  expect([...new Set(await recorded(page))]).toEqual([
    'one ',
    'one two ',
    'one two three ',
    'one two three four ',
    'one two three four five ',
  ]);
  await expect(lastAnswer(page)).toContainText('“one two three four five”');
});

test('Enter sends, Shift+Enter adds a line; an empty message is not sent', async ({ page }) => {
  const box = page.getByLabel('Message');
  await box.press('Enter');
  await expect(page.getByTestId('user')).toHaveCount(0);
  await box.fill('What is');
  await box.press('Shift+Enter');
  await box.pressSequentially('1 + 1');
  await expect(box).toHaveValue('What is\n1 + 1');
  await box.press('Enter');
  await expect(page.getByTestId('user')).toHaveText('What is\n1 + 1');
  await expect(lastAnswer(page)).toContainText('1 + 1 = 2');
});

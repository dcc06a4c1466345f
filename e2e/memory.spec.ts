import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

// What a tool that allocates without end can do (README, "Memory"). Chromium runs a page's
// workers in the page's own process, and their memory counts against the same limit.

test('a memory-hungry tool is stopped by its time limit; the page keeps drawing and the next call works', async ({
  page,
  expectConsoleErrors: _,
}) => {
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  await page.goto('./?toolTimeoutMs=1500');
  const frames = () => page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(r)));
  const before = await frames();
  await ask(page, 'Eat memory');
  const card = cards(page, 'hog_memory');
  await expect(card).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect(card.getByTestId('tool-result')).toContainText("Tool 'hog_memory'");
  await expect(card.getByTestId('tool-result')).toContainText('timed out after 1500 ms');
  expect(await frames()).toBeGreaterThan(before);
  await idle(page);
  await ask(page, 'Count the primes below 100000');
  await expect(lastAnswer(page)).toContainText('There are 9,592 primes below 100,000');
  expect(crashed).toBe(false);
});

test('without a time limit it exhausts the renderer memory and the page crashes (a platform limit)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const crashed = new Promise<boolean>((resolve) => {
    page.on('crash', () => resolve(true));
    setTimeout(() => resolve(false), 75_000);
  });
  await page.goto('./?toolTimeoutMs=0');
  await ask(page, 'Eat memory');
  expect(await crashed).toBe(true);
});

import { expect, test } from '@playwright/test';

// What a tool that allocates without end can do (README, "Memory"). Chromium runs a page's
// workers in the page's own process, and their memory counts against the same limit.

test('a memory-hungry tool is stopped by its time limit; the page keeps drawing and the next call works', async ({
  page,
}) => {
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  await page.goto('./');
  const before = Number(await page.getByTestId('ticks').textContent());
  await page.getByRole('button', { name: 'Let a tool eat memory' }).click();
  await expect(page.getByTestId('tool-output')).toHaveText(
    /^ToolTimeoutError: Tool 'hog_memory' \(call demo_\d+\) timed out after 1500 ms/,
    { timeout: 10_000 },
  );
  expect(Number(await page.getByTestId('ticks').textContent())).toBeGreaterThan(before);
  await page.getByLabel('Count primes below').fill('100000');
  await page.getByRole('button', { name: 'Count' }).click();
  await expect(page.getByTestId('tool-output')).toHaveText('count_primes(100000) = 9592');
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
  await page.goto('./?hogMs=0');
  await page.getByRole('button', { name: 'Let a tool eat memory' }).click();
  expect(await crashed).toBe(true);
});

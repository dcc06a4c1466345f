import { expect, test } from '@playwright/test';

test('a CPU-heavy tool runs in a worker, streams progress, and the page keeps drawing', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Count primes below').fill('2000000');
  const before = Number(await page.getByTestId('ticks').textContent());
  await page.getByRole('button', { name: 'Count' }).click();
  await expect(page.getByTestId('tool-output')).toHaveText('count_primes(2000000) = 148933', { timeout: 30_000 });
  await expect(page.locator('#prime-progress')).toHaveJSProperty('value', 100);
  expect(Number(await page.getByTestId('ticks').textContent())).toBeGreaterThan(before);
});

test('a tool cannot reach the network: the guard says why', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Let a tool try the network' }).click();
  await expect(page.getByTestId('tool-output')).toHaveText(
    "NetworkDeniedError: Network access denied by the pool's policy: fetch https://example.com/ (policy 'deny')",
  );
});

test('a fact a tool remembers survives a reload (IndexedDB shared by worker and page)', async ({ page }) => {
  await page.goto('./');
  const fact = `tea-${Date.now()}`;
  await page.getByLabel('Fact').fill(fact);
  await page.getByLabel('Value').fill('sencha');
  await page.getByRole('button', { name: 'Remember' }).click();
  await expect(page.getByTestId('tool-output')).toHaveText(`Remembered ${fact}`);
  await expect(page.getByTestId('facts')).toContainText(`${fact}: sencha`);
  await page.reload();
  await expect(page.getByTestId('facts')).toContainText(`${fact}: sencha`);
});

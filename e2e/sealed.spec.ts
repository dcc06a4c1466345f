import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

// The demo as it is served: every tool worker runs sealed, in a sandboxed frame, a process apart
// from the page's; the page serves the tools' note store (docs/isolation.md). The static server
// sends no CORS and no COOP/COEP headers: the page reads the tools module itself.

test('sealed tools answer: parallel results, notes kept by the page, a denied fetch', async ({
  page,
  expectConsoleErrors: _,
}) => {
  await page.goto('./');
  await ask(page, 'What is 3 * 12? Also, what is 11 + 49?');
  const calc = cards(page, 'calculator');
  await expect(calc.nth(0).getByTestId('tool-result')).toContainText('"result": 36');
  await expect(calc.nth(1).getByTestId('tool-result')).toContainText('"result": 60');
  await idle(page);
  expect(await page.locator('iframe[title="Moat tool worker"]').count()).toBeGreaterThan(0);

  await ask(page, 'Remember that my favourite tea is sencha');
  await expect(cards(page, 'remember')).toHaveAttribute('data-status', 'done');
  await idle(page);
  // Written through the page: the page's own IndexedDB holds it, and a reload (a new frame) reads it.
  await page.reload();
  await ask(page, 'What do you remember about tea?');
  await expect(lastAnswer(page)).toContainText('my favourite tea: my favourite tea is sencha');
  await idle(page);

  await ask(page, 'Fetch https://example.com/');
  await expect(cards(page, 'fetch_url').getByTestId('tool-result')).toContainText('Not allowed to reach example.com.');
  await idle(page);
});

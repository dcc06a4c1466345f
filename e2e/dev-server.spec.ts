import { ask, cards, expect, idle, test } from './fixtures';

// `npm start`: the dev server serves the tools module unbundled (a few dozen modules, no CORS for
// an opaque origin); the page reads them itself and the tools run sealed there too.
test('from the dev server the tools run sealed: a result, a denied fetch, one frame', async ({ page }) => {
  await page.goto('./');
  await ask(page, 'What is 3 * 12?');
  await expect(cards(page, 'calculator').getByTestId('tool-result')).toContainText('"result": 36');
  await idle(page);
  expect(await page.locator('iframe[title="Moat tool worker"]').count()).toBe(1);
  await ask(page, 'Fetch https://example.com/');
  await expect(cards(page, 'fetch_url').getByTestId('tool-result')).toContainText('Not allowed to reach example.com.');
  await idle(page);
});

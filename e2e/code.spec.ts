import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

test('code mode: one script in run_javascript calls two tools, drawn as nested cards; the answer combines them', async ({
  page,
  expectConsoleErrors: _,
}) => {
  await page.goto('./');
  await ask(page, 'Use code to multiply 3 by 12 and convert 42 km to miles');
  const card = cards(page, 'run_javascript');
  await expect(card.getByTestId('tool-args')).toContainText('await tools.calculator');
  const nested = card.getByTestId('nested-calls');
  await expect(nested.locator('[data-tool="calculator"]')).toHaveAttribute('data-status', 'done');
  await expect(nested.locator('[data-tool="convert_units"]')).toHaveAttribute('data-status', 'done');
  await expect(nested.locator('[data-tool="convert_units"]').getByTestId('tool-result')).toContainText(
    '42 km = 26.0976 mi',
  );
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(card.locator(':scope > .tool-body > [data-testid="tool-output"]')).toHaveText('calculator said 36\n');
  await expect(lastAnswer(page)).toContainText('Result: {"product":36,"distance":"42 km = 26.0976 mi"}');
  await idle(page);

  // Drawn again from the saved thread after a reload: the script's calls and console are there too.
  await page.reload();
  const again = cards(page, 'run_javascript');
  await expect(again).toHaveAttribute('data-status', 'done');
  const restored = again.getByTestId('nested-calls');
  await expect(restored.locator('[data-tool="calculator"]')).toHaveAttribute('data-status', 'done');
  await expect(restored.locator('[data-tool="convert_units"]').getByTestId('tool-result')).toContainText(
    '42 km = 26.0976 mi',
  );
  await expect(again.locator(':scope > .tool-body > [data-testid="tool-output"]')).toHaveText('calculator said 36\n');
});

test('code that tries the network or the page gets nothing; an endless loop ends at its time limit and the next script runs', async ({
  page,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/Content Security Policy|Refused to connect/);
  await page.goto('./');
  await ask(page, "Run JavaScript: await fetch('https://example.com/')");
  await expect(cards(page, 'run_javascript')).toHaveAttribute('data-status', 'error');
  await expect(lastAnswer(page)).toContainText('The script failed');
  await expect(lastAnswer(page)).toContainText('TypeError: Failed to fetch');
  await idle(page);
  await ask(page, 'Run JavaScript: [typeof document, typeof localStorage, typeof indexedDB.open]');
  await expect(lastAnswer(page)).toContainText('Result: ["undefined","undefined","function"]');
  await idle(page);
  await ask(page, 'Run JavaScript: while (true) {}');
  await expect(cards(page, 'run_javascript').last()).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  await expect(lastAnswer(page)).toContainText('ran past its time limit of 10000 ms');
  await idle(page);
  await ask(page, 'Run JavaScript: [3, 1, 2].sort().map((x) => x * x)');
  await expect(lastAnswer(page)).toContainText('Result: [1,4,9]');
});

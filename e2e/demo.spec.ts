import { expect, test } from '@playwright/test';

test('the demo replays a streamed tool call and shows the parsed call', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Moat' })).toBeVisible();
  await page.getByLabel('Piece size').fill('16');
  await page.getByRole('button', { name: 'Replay the stream' }).click();

  // While it streams, the partial view grows; at the end the state is complete.
  await expect(page.getByTestId('partial')).toContainText('"city": "Lisbon"');
  await expect(page.getByTestId('state')).toHaveText('complete');
  const finalCall = JSON.parse((await page.getByTestId('final').textContent()) ?? '');
  expect(finalCall).toEqual({
    id: 'call_demo_1',
    name: 'plan_trip',
    args: {
      city: 'Lisbon',
      days: 3,
      interests: ['tiles', 'fado', 'pastéis de nata'],
      budget: { amount: 900, currency: 'EUR' },
      notes: 'Prefers walking; avoid "tourist traps" 🙂',
    },
  });
  expect(JSON.parse((await page.getByTestId('partial').textContent()) ?? '')).toEqual(finalCall.args);
  expect(errors).toEqual([]);
});

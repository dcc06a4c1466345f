import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

test.beforeEach(async ({ page, expectConsoleErrors: _ }) => {
  await page.goto('./');
  await expect(page.getByTestId('model')).toHaveText('Offline demo model');
});

/** A PNG of `width` × `height` made in the page, handed to the composer the way `how` says. */
async function give(page: Page, how: 'paste' | 'drop', width: number, height: number, name: string): Promise<void> {
  await page.evaluate(
    async ({ how, width, height, name }) => {
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      g.fillStyle = '#c33';
      g.fillRect(0, 0, width, height);
      const file = new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(file);
      if (how === 'paste') {
        const prompt = document.querySelector('#prompt') as HTMLTextAreaElement;
        prompt.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      } else {
        const composer = document.querySelector('#composer') as HTMLFormElement;
        composer.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        composer.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    },
    { how, width, height, name },
  );
}

const violations = async (page: Page) =>
  (await new AxeBuilder({ page }).exclude('iframe[title="Moat tool worker"]').analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
  );

test('images pasted and dropped go with the message, are described, and are still there after a reload', async ({
  page,
}) => {
  test.slow(); // an axe scan, two answers and a reload
  await give(page, 'paste', 64, 48, 'pasted.png');
  await give(page, 'drop', 20, 30, 'dropped.png');
  await expect(page.getByTestId('attached')).toHaveCount(2);
  // One is taken back, then given again.
  await page.getByRole('button', { name: 'Remove dropped.png' }).click();
  await expect(page.getByTestId('attached')).toHaveCount(1);
  await give(page, 'drop', 20, 30, 'dropped.png');
  await ask(page, 'What are these?');
  await expect(page.getByTestId('attached')).toHaveCount(0);
  const sent = page.getByTestId('user').last();
  await expect(sent.locator('img.attachment')).toHaveCount(2);
  await expect(lastAnswer(page)).toContainText('You attached 2 things');
  await expect(lastAnswer(page)).toContainText('64 × 48 pixels');
  await expect(lastAnswer(page)).toContainText('20 × 30 pixels');
  await idle(page);

  // A chart drawn in the tool's worker, shown on its card.
  await ask(page, 'Draw a chart of 3, 7, 2, 9 and 5');
  const chart = cards(page, 'draw_chart');
  await expect(chart.getByTestId('tool-result').locator('img.attachment')).toBeVisible();
  await expect(lastAnswer(page).getByTestId('answer')).toContainText('A bar chart of 5 values');
  await idle(page);
  expect(await violations(page)).toEqual([]);

  await page.reload();
  await expect(page.getByTestId('user').first().locator('img.attachment')).toHaveCount(2);
  const widths = await page
    .getByTestId('user')
    .first()
    .locator('img.attachment')
    .evaluateAll((images) => images.map((i) => (i as HTMLImageElement).naturalWidth));
  expect(widths).toEqual([64, 20]);
  // Each still named as the file it came from.
  const sentFirst = page.getByTestId('user').first();
  await expect(sentFirst.getByRole('img', { name: 'pasted.png' })).toBeVisible();
  await expect(sentFirst.getByRole('img', { name: 'dropped.png' })).toBeVisible();
  await expect(cards(page, 'draw_chart').getByTestId('tool-result').locator('img.attachment')).toBeVisible();
});

test('an attachment alone is a message; one that cannot be read is refused, and the text stays', async ({ page }) => {
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array([1, 2, 3])], 'mystery.bin'));
    const prompt = document.querySelector('#prompt') as HTMLTextAreaElement;
    prompt.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await ask(page, 'And this?');
  await expect(page.getByRole('alert')).toContainText('Not sent: Cannot tell the media type');
  await expect(page.getByLabel('Message')).toHaveValue('And this?');
  // The file is back in the composer, to be removed.
  await page.getByRole('button', { name: 'Remove mystery.bin' }).click();
  await expect(page.getByTestId('attached')).toHaveCount(0);
  await give(page, 'paste', 8, 8, 'only.png');
  await page.getByLabel('Message').fill('');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(lastAnswer(page)).toContainText('You attached one thing');
});

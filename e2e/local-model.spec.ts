// "In this browser": the demo downloads a model only when asked (with a progress bar), keeps it,
// and runs the same conversation on it, its tools sealed, with no network for the model. The model
// is the tiny GGUF the tests write themselves (test/tiny-gguf.ts), served here as a host would.
import { tinyGGUF } from '../test/tiny-gguf';
import { ask, expect, idle, lastAnswer, test } from './fixtures';

const MODEL_PATH = 'models/tiny-e2e.gguf';

test('a model in this browser: downloaded once on request, kept, and answering offline', async ({ page }) => {
  test.setTimeout(240_000);
  const bytes = Buffer.from(tinyGGUF({ embedding: 128, seed: 3 }));
  let fetched = 0;
  await page.route(`**/${MODEL_PATH}`, (route) => {
    fetched++;
    return route.fulfill({ status: 200, contentType: 'application/octet-stream', body: bytes });
  });
  await page.goto('./');
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('moat-models', { recursive: true }).catch(() => {});
  });

  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Talk to').selectOption('local');
  const group = dialog.getByRole('group', { name: 'A model in this browser' });
  // The models on offer show their sizes; nothing has been fetched.
  await expect(group.getByLabel('Model', { exact: true })).toContainText(/Qwen2\.5 0\.5B Instruct \(Q4_K_M\) · \d+ MB/);
  expect(fetched).toBe(0);
  // Saving without downloading downloads nothing, and says so.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('connection-result')).toContainText('nothing is downloaded until you ask');
  expect(fetched).toBe(0);

  await group.getByLabel('Model', { exact: true }).selectOption({ label: 'Another GGUF file (its address below)' });
  await group.getByLabel('GGUF file').fill(new URL(MODEL_PATH, page.url()).href);
  await group.getByRole('button', { name: 'Download and use' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  expect(fetched).toBe(1);
  await expect(page.getByTestId('model')).toHaveText('In this browser · tiny-e2e.gguf');

  // From now on the model's host is gone: the model loads from this browser's storage.
  await page.unroute(`**/${MODEL_PATH}`);
  await page.route(`**/${MODEL_PATH}`, (route) => route.abort());
  await ask(page, 'What is 3 * 12?');
  // The tiny model writes noise within the answer's grammar, up to the context's 4,096 tokens (a
  // URL that does not end, say): beside test:loaded's busy loops that took past 30 s once.
  await idle(page, 120_000);
  // The tiny model's answer is noise; it is streamed into the conversation like any answer.
  await expect(lastAnswer(page)).not.toBeEmpty();
  expect(fetched).toBe(1);

  // Settings lists it with its size, and can delete it.
  await page.getByRole('button', { name: 'Settings' }).click();
  const kept = page.getByRole('list', { name: 'Models kept in this browser' });
  await expect(kept).toContainText(`tiny-e2e.gguf · ${Math.round(bytes.length / 1e6)} MB`);
  await kept.getByRole('button', { name: 'Delete' }).click();
  await expect(kept.getByRole('listitem')).toHaveCount(0);
});

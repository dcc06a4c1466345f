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

// Playwright stops driving a page once any of its frames' processes crashes, so this test reads
// the page through reports it sends itself (an init script; the route below answers them).
test("a memory bomb in the sandbox kills only the sandbox's process: the page lives on and says so", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const reports: { at: number; status: string; result: string; frames: number }[] = [];
  await page.route('**/__report?**', (route) => {
    reports.push(JSON.parse(new URL(route.request().url()).searchParams.get('r') ?? '{}'));
    return route.fulfill({ body: 'ok' });
  });
  let crashedAt = 0;
  page.on('crash', () => {
    crashedAt = Date.now();
  });
  await page.addInitScript(() => {
    let frames = 0;
    const tick = () => {
      frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    setInterval(() => {
      const card = [...document.querySelectorAll('[data-tool="run_javascript"]')].at(-1) as HTMLElement | undefined;
      const r = {
        at: Date.now(),
        status: card?.dataset.status ?? '',
        result: card?.querySelector('[data-testid="tool-result"]')?.textContent ?? '',
        frames,
      };
      void fetch(`./__report?r=${encodeURIComponent(JSON.stringify(r))}`).catch(() => {});
    }, 200);
  });
  await page.goto('./?codeTimeoutMs=60000');
  await ask(page, 'Run JavaScript: const hoard = []; for (;;) hoard.push(new Array(1e6).fill(7));');
  await expect.poll(() => crashedAt, { timeout: 50_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => reports.find((r) => r.status === 'error')?.result ?? '', { timeout: 15_000 })
    .toContain('The code sandbox stopped');
  const after = reports.filter((r) => r.at > crashedAt + 500);
  expect(after.length).toBeGreaterThan(5);
  // The page kept drawing frames after the sandbox died.
  expect((after.at(-1) as { frames: number }).frames).toBeGreaterThan((after[0] as { frames: number }).frames);
  expect(reports.find((r) => r.status === 'error')?.result).toContain(
    'The code sandbox stopped: its process stopped answering (out of memory, most likely)',
  );
});

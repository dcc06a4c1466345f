import type { Page } from '@playwright/test';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

// What a tool that allocates without end can do (docs/faults.md, "Memory"). Chromium runs a page's
// workers in the page's own process, and their memory counts against the same limit.

test('a memory-hungry tool is stopped by its time limit; the page keeps drawing and the next call works', async ({
  page,
  expectConsoleErrors: _,
}) => {
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  await page.goto('./?toolTimeoutMs=1500&tools=plain');
  const frames = () => page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(r)));
  const before = await frames();
  await ask(page, 'Eat memory');
  const card = cards(page, 'hog_memory');
  await expect(card).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect(card.getByTestId('tool-result')).toContainText('Timed out after 1.5 s.');
  expect(await frames()).toBeGreaterThan(before);
  await idle(page);
  await ask(page, 'Count the primes below 100000');
  await expect(lastAnswer(page)).toContainText('There are 9,592 primes below 100,000');
  expect(crashed).toBe(false);
});

test('with plain workers and no time limit it exhausts the renderer memory and the page crashes (a platform limit)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const crashed = new Promise<boolean>((resolve) => {
    page.on('crash', () => resolve(true));
    setTimeout(() => resolve(false), 75_000);
  });
  await page.goto('./?toolTimeoutMs=0&tools=plain');
  await ask(page, 'Eat memory');
  expect(await crashed).toBe(true);
});

interface Report {
  at: number;
  /** The newest card of the tool watched: its status and result text. */
  status: string;
  result: string;
  /** The newest answer of the model. */
  answer: string;
  /** Frames the page has drawn so far. */
  frames: number;
}

// Playwright stops driving a page once any of its frames' processes crashes, so these tests read
// the page through reports it sends itself (an init script; the route answers them), and the
// page asks its own follow-up question (`then`) once the watched card shows an error.
async function watchPage(page: Page, tool: string, then?: string) {
  const reports: Report[] = [];
  await page.route('**/__report?**', (route) => {
    reports.push(JSON.parse(new URL(route.request().url()).searchParams.get('r') ?? '{}'));
    return route.fulfill({ body: 'ok' });
  });
  const crash = { at: 0 };
  page.on('crash', () => {
    crash.at = Date.now();
  });
  await page.addInitScript(
    ([tool, then]) => {
      let frames = 0;
      let asked = false;
      const tick = () => {
        frames++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      setInterval(() => {
        const card = [...document.querySelectorAll(`[data-tool="${tool}"]`)].at(-1) as HTMLElement | undefined;
        const answers = document.querySelectorAll('[data-testid="assistant"]');
        const r = {
          at: Date.now(),
          status: card?.dataset.status ?? '',
          result: card?.querySelector('[data-testid="tool-result"]')?.textContent ?? '',
          answer: answers[answers.length - 1]?.textContent ?? '',
          frames,
        };
        const box = document.getElementById('prompt') as HTMLTextAreaElement | null;
        const send = document.getElementById('send') as HTMLButtonElement | null;
        if (then && !asked && r.status === 'error' && box && send && !send.disabled && !send.hidden) {
          asked = true;
          box.value = then;
          box.dispatchEvent(new Event('input', { bubbles: true }));
          send.click();
        }
        void fetch(`./__report?r=${encodeURIComponent(JSON.stringify(r))}`).catch(() => {});
      }, 200);
    },
    [tool, then ?? ''] as const,
  );
  return { reports, crash };
}

test("a memory bomb in the sandbox kills only the sandbox's process: the page lives on and says so", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { reports, crash } = await watchPage(page, 'run_javascript');
  await page.goto('./?codeTimeoutMs=60000');
  await ask(page, 'Run JavaScript: const hoard = []; for (;;) hoard.push(new Array(1e6).fill(7));');
  await expect.poll(() => crash.at, { timeout: 50_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => reports.find((r) => r.status === 'error')?.result ?? '', { timeout: 15_000 })
    .toContain('The code sandbox stopped');
  const after = reports.filter((r) => r.at > crash.at + 500);
  expect(after.length).toBeGreaterThan(5);
  // The page kept drawing frames after the sandbox died.
  expect((after.at(-1) as Report).frames).toBeGreaterThan((after[0] as Report).frames);
  expect(reports.find((r) => r.status === 'error')?.result).toContain(
    'The code sandbox stopped: its process stopped answering (out of memory, most likely)',
  );
});

test("with sealed tools (the default), a memory-hungry tool with no time limit kills only its frame's process; the page lives on and the next call works", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { reports, crash } = await watchPage(page, 'hog_memory', 'Count the primes below 100000');
  await page.goto('./?toolTimeoutMs=0');
  await ask(page, 'Eat memory');
  await expect.poll(() => crash.at, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => reports.find((r) => r.status === 'error')?.result ?? '', { timeout: 15_000 })
    .toMatch(
      /The worker running 'hog_memory' stopped: its frame's process stopped answering \(out of memory, most likely\)/,
    );
  // The page asked its next question itself: answered by a tool on a fresh sealed worker.
  await expect
    .poll(() => reports.at(-1)?.answer ?? '', { timeout: 30_000 })
    .toContain('There are 9,592 primes below 100,000');
  const after = reports.filter((r) => r.at > crash.at + 500);
  expect((after.at(-1) as Report).frames).toBeGreaterThan((after[0] as Report).frames);
});

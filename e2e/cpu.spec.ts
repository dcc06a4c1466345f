import { ask, cards, expect, lastAnswer, test } from './fixtures';

test('count_primes(2e7) burns a core in a worker while the page keeps drawing: no frame gap over 100 ms', async ({
  page,
  expectConsoleErrors: _,
}) => {
  await page.goto('./');
  // The machine first: on two cores, another process's work (a browser starting, one torn down)
  // shows as frame gaps on any page. Measure once the page draws smoothly on its own.
  await page.evaluate(async () => {
    const quietSecond = () =>
      new Promise<boolean>((resolve) => {
        let last = performance.now();
        let worst = 0;
        const start = last;
        const tick = (now: number) => {
          worst = Math.max(worst, now - last);
          last = now;
          if (now - start < 1000) requestAnimationFrame(tick);
          else resolve(worst < 50);
        };
        requestAnimationFrame(tick);
      });
    for (let tries = 0; tries < 15 && !(await quietSecond()); tries++);
  });
  await ask(page, 'Count the primes below 20,000,000');
  const card = cards(page, 'count_primes');
  await expect(card).toHaveAttribute('data-status', 'running');
  // Count frames from inside the page while the tool runs, and wait there too: the test's own
  // polling (the harness querying the DOM) would run on the page's thread it measures.
  const frames = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const frames: number[] = [];
        // Only while the tool runs: what comes after (the answer streaming in) is not its cost.
        const card = document.querySelector('[data-tool="count_primes"]') as HTMLElement;
        const tick = (now: number) => {
          if (card.dataset.status !== 'running') resolve(frames);
          else {
            frames.push(now);
            requestAnimationFrame(tick);
          }
        };
        requestAnimationFrame(tick);
      }),
  );
  await expect(card).toHaveAttribute('data-status', 'done');
  const gaps = frames.slice(1).map((t, i) => t - (frames[i] as number));
  expect(frames.length).toBeGreaterThan(60); // it ran for seconds
  expect(Math.max(...gaps), `frame gaps over 50 ms: ${gaps.filter((g) => g > 50).map(Math.round)}`).toBeLessThan(100);
  await expect(card.getByTestId('tool-result')).toContainText('"primes": 1270607');
  await expect(lastAnswer(page)).toContainText('There are 1,270,607 primes below 20,000,000');
  // Progress streamed to the card on the way.
  await expect(card.locator('progress')).toHaveJSProperty('value', 100);
});

/**
 * The demo's e2e fixtures: every test fails on a console error or an uncaught page error, unless
 * it names the browser's own network message it expects (a 401 a test provokes, say).
 */
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export const test = base.extend<{ expectConsoleErrors: (pattern: RegExp) => void }>({
  expectConsoleErrors: async ({ page }, use) => {
    const allowed: RegExp[] = [];
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !allowed.some((p) => p.test(message.text()))) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    await use((pattern) => allowed.push(pattern));
    expect(errors, 'console errors').toEqual([]);
  },
});

/** Type a message and press Enter. */
export async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Message');
  await box.fill(text);
  await box.press('Enter');
}

/** The newest answer of the model. */
export const lastAnswer = (page: Page) => page.getByTestId('assistant').last();

/** Tool cards of one tool, in order. */
export const cards = (page: Page, tool: string) => page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);

/** Wait until no run is in progress (the Send button is back); `timeoutMs` is a hang guard. */
export async function idle(page: Page, timeoutMs = 30_000): Promise<void> {
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: timeoutMs });
}

/**
 * Record every text the elements matching `selector` in the conversation show, as it changes
 * (a MutationObserver: no state is missed between two polls). Read back with `recorded`.
 */
export async function recordTexts(page: Page, selector: string): Promise<void> {
  await page.evaluate((selector) => {
    const seen: string[] = [];
    (window as unknown as { recorded: string[] }).recorded = seen;
    new MutationObserver((records) => {
      for (const r of records) {
        const el = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest(selector);
        if (el) seen.push(el.textContent ?? '');
      }
    }).observe(document.getElementById('log') as HTMLElement, { subtree: true, childList: true, characterData: true });
  }, selector);
}

export const recorded = (page: Page) => page.evaluate(() => (window as unknown as { recorded: string[] }).recorded);

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

// The sealed tools' frame is hidden from everyone (aria-hidden, no size), and axe cannot inject
// itself into a sandboxed frame of another origin (it waits on it until the test's time runs out).
const violations = async (page: Page) =>
  (await new AxeBuilder({ page }).exclude('iframe[title="Moat tool worker"]').analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
  );

// Pairwise: each layout and each colour scheme once. Contrast depends on the scheme, not the
// layout; overflow and the phone's sliding sidebar on the layout, not the scheme.
for (const [width, height, label, colorScheme] of [
  [1280, 800, 'desktop', 'light'],
  [390, 844, 'phone', 'dark'],
] as const) {
  test(`${label}, ${colorScheme}: no axe violations in the main states, no overflow; screenshots`, async ({
    page,
    expectConsoleErrors: _,
  }, testInfo) => {
    // Five axe scans and four answers that stream at reading pace: more than the default 30 s
    // on a loaded two-core machine.
    test.slow();
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height });
    await page.goto('./');
    const shot = (state: string) =>
      page.screenshot({ path: testInfo.outputPath(`${label}-${colorScheme}-${state}.png`) });
    await expect(page.getByRole('heading', { name: /Tools run in Web Workers/ })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await shot('empty');

    // Cards, results, a Markdown answer.
    await ask(page, 'What is 3 * 12? Also, what is 11 + 49?');
    await expect(lastAnswer(page)).toContainText('11 + 49 = 60');
    await idle(page);
    await ask(page, 'Show me some markdown');
    await expect(lastAnswer(page).locator('table')).toBeVisible();
    await idle(page);
    expect(await violations(page)).toEqual([]);
    await shot('answers');

    // A call waiting for approval, and a failed one.
    await ask(page, 'Fetch https://example.com/');
    await expect(cards(page, 'fetch_url')).toHaveAttribute('data-status', 'error');
    await idle(page);
    await ask(page, 'Delete the note groceries');
    await expect(cards(page, 'delete_note').getByRole('button', { name: 'Approve' })).toBeVisible();
    await idle(page);
    expect(await violations(page)).toEqual([]);
    await shot('approval');

    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The settings dialog.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('dialog', { name: 'Model' }).getByLabel('Talk to').selectOption('openai');
    expect(await violations(page)).toEqual([]);
    await shot('settings');
    await page.getByRole('button', { name: 'Cancel' }).click();

    if (label === 'phone') {
      // The conversations slide over the chat from a menu button.
      const menu = page.getByRole('button', { name: 'Conversations' });
      await expect(page.getByRole('button', { name: 'New chat' })).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByRole('button', { name: 'New chat' })).toBeVisible();
      expect(await violations(page)).toEqual([]);
      await shot('sidebar');
    }
  });
}

test('keyboard only: type, send, approve, reach the settings', async ({ page, expectConsoleErrors: _ }) => {
  await page.goto('./');
  await expect(page.getByLabel('Message')).toBeFocused();
  await page.keyboard.type('Remember that the keyboard works');
  await page.keyboard.press('Enter');
  await expect(lastAnswer(page)).toContainText("Saved the note 'the keyboard works'.");
  await idle(page);
  await page.keyboard.type('Delete the note the keyboard works');
  await page.keyboard.press('Enter');
  const approve = cards(page, 'delete_note').getByRole('button', { name: 'Approve' });
  await expect(approve).toBeVisible();
  await idle(page);
  // Tab from the composer backwards reaches the card's buttons.
  for (let i = 0; i < 40 && !(await approve.evaluate((b) => b === document.activeElement)); i++)
    await page.keyboard.press('Shift+Tab');
  await expect(approve).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(lastAnswer(page)).toContainText("Deleted the note 'the keyboard works'.");
  // The end of a run gives the composer the focus: wait for it, then move on.
  await idle(page);
  await page.getByRole('button', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Model' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Model' })).toBeHidden();
});

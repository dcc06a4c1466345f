import { ask, expect, idle, lastAnswer, test } from './fixtures';

test('threads: listed by first message, switched, deleted; a reload reopens the open one', async ({
  page,
  expectConsoleErrors: _,
}) => {
  await page.goto('./');
  const threads = page.getByRole('navigation', { name: 'Conversations' }).getByTestId('thread');
  await expect(page.getByText('No conversations yet.')).toBeVisible();
  await ask(page, 'What is 2 + 3?');
  await expect(lastAnswer(page)).toContainText('2 + 3 = 5');
  await idle(page);
  await expect(threads).toHaveCount(1);
  await expect(threads.first()).toContainText('What is 2 + 3?');

  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByTestId('user')).toHaveCount(0);
  await ask(page, 'Convert 5 km to miles');
  await expect(lastAnswer(page)).toContainText('5 km = 3.10686 mi');
  await idle(page);
  await expect(threads).toHaveCount(2);
  await expect(threads.first()).toContainText('Convert 5 km to miles');
  await expect(threads.first().getByRole('button').first()).toHaveAttribute('aria-current', 'page');

  // Back to the first; a reload reopens it.
  await threads.nth(1).getByRole('button').first().click();
  await expect(page.getByTestId('user')).toHaveText(['What is 2 + 3?']);
  await page.reload();
  await expect(page.getByTestId('user')).toHaveText(['What is 2 + 3?']);
  await expect(lastAnswer(page)).toContainText('2 + 3 = 5');

  // Delete the open one: the page starts a new chat and the other remains.
  await page.getByRole('button', { name: 'Delete “What is 2 + 3?”' }).click();
  await expect(threads).toHaveCount(1);
  await expect(threads.first()).toContainText('Convert 5 km to miles');
  await expect(page.getByTestId('user')).toHaveCount(0);
  await page.reload();
  await expect(threads).toHaveCount(1);
});
